import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CURRENT_VERSION, createEngine, type PreparedImage, validateDocument } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { loadCanvasKit } from "../src/canvaskit.ts";
import { loadIconSet } from "../src/icons.ts";
import { prepareImage } from "../src/prepare-image.ts";

/**
 * Document v2 acceptance: every v1 document renders byte-identically after migration. The fixture holds
 * the SHA-256 of the premultiplied RGBA of every v1 example template, every frame, at scales 1 and 2,
 * drawn by the engine of commit 36d9774 (the last one before document v2, run once from a git worktree
 * of that commit with the same fonts and prepared images). Today's engine draws each v1 example after
 * migrating it to the current version, and must produce the very same bytes.
 */

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const templatesDir = join(repoRoot, "examples/templates");
const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/v1-example-renders.json", import.meta.url), "utf8"),
) as { renders: Record<string, string> };

const cases = Object.entries(fixture.renders).map(([name, sha256]) => {
  const [file = "", rest = ""] = name.split("#");
  const [frame = "", scale = "1"] = rest.split("@");
  return { name, file: `${file}.json`, frame, scale: Number(scale), sha256 };
});

const engine = (async () =>
  createEngine({
    canvasKit: await loadCanvasKit(),
    fonts: await loadFontSet(),
    icons: await loadIconSet(),
  }))();

describe("v1 documents render byte-identically after migration to the current version", () => {
  it("covers every v1 example template", () => {
    const files = new Set(cases.map((c) => c.file));
    expect(files.size).toBeGreaterThanOrEqual(6);
  });

  it.each(cases)("$name", async ({ file, frame, scale, sha256 }) => {
    const raw = JSON.parse(readFileSync(join(templatesDir, file), "utf8"));
    expect(raw.version).toBe(1);
    const checked = validateDocument(raw);
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    expect(checked.document.version).toBe(CURRENT_VERSION);
    const document = checked.document;
    const ready = await engine;
    const options = { frame, values: document.sample ?? {}, scale };
    const images = new Map<string, PreparedImage>();
    for (const request of ready.planImages(document, options)) {
      const bytes = new Uint8Array(await readFile(resolve(templatesDir, request.src)));
      images.set(request.key, await prepareImage(bytes, request));
    }
    const result = ready.render(document, { ...options, images });
    expect(createHash("sha256").update(result.pixels).digest("hex")).toBe(sha256);
  });
});
