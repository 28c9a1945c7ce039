import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildEditor } from "../build.ts";

const scratch = mkdtempSync(join(tmpdir(), "pictor-editor-bundle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** The built files (scripts, source maps, HTML, CSS) that contain `text`, relative to the build. */
function containing(dir: string, text: string): string[] {
  return files(dir)
    .filter((file) => readFileSync(file, "utf8").includes(text))
    .map((file) => relative(dir, file));
}

describe("the editor bundle", () => {
  // The same Vite builds as `npm run build` and the end-to-end harness, into scratch directories.
  it("ships the test bridge (window.__pictor) only in the test entry's build, not in what users download", async () => {
    const production = join(scratch, "dist");
    await buildEditor({ appOnly: true, outDir: production });
    expect(files(production).map((f) => relative(production, f))).toContain("index.html");
    expect(containing(production, "__pictor")).toEqual([]);
    // Nor any module of src/testing/, by the source maps' lists of what each script was built from.
    const sources = (dir: string) =>
      files(dir)
        .filter((f) => f.endsWith(".map"))
        .flatMap((f) => (JSON.parse(readFileSync(f, "utf8")) as { sources: string[] }).sources);
    expect(sources(production).filter((s) => s.includes("/testing/"))).toEqual([]);
    expect(sources(production).some((s) => s.endsWith("/main.tsx"))).toBe(true);

    const test = join(scratch, "dist-test");
    await buildEditor({ appOnly: true, testBridge: true, outDir: test });
    expect(containing(test, "__pictor").some((f) => f.endsWith(".js"))).toBe(true);
    expect(sources(test).filter((s) => s.includes("/testing/")).length).toBeGreaterThan(0);
    // The same app otherwise: the same stylesheet, and both pages load one module script.
    const css = (dir: string) =>
      files(dir)
        .filter((f) => f.endsWith(".css"))
        .map((f) => readFileSync(f, "utf8"));
    expect(css(test)).toEqual(css(production));
    for (const dir of [production, test])
      expect(readFileSync(join(dir, "index.html"), "utf8").match(/<script type="module"/g)).toHaveLength(1);
  }, 120_000);
});
