import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { type BundleLayout, editorBundleState, ensureEditorBuilt, unwritable } from "../build.ts";

const scratch = mkdtempSync(join(tmpdir(), "pictor-editor-build-state-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
/** A build of its own: a source folder, two outputs, written by `build` (the real one is Vite's). */
function layout() {
  const dir = join(scratch, `case-${++n}`);
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "dist"));
  writeFileSync(join(dir, "src", "main.tsx"), "source");
  const l: BundleLayout = {
    sources: [join(dir, "src")],
    outputs: [join(dir, "dist", "index.html"), join(dir, "dist", "engine.js")],
    writable: [dir, join(dir, "dist")],
    lock: join(dir, ".build.lock"),
  };
  let builds = 0;
  const build = async () => {
    builds++;
    await sleep(50);
    for (const file of l.outputs) writeFileSync(file, "built");
  };
  /** Moves a file's modification time `seconds` into the past. */
  const age = (file: string, seconds: number) => {
    const t = Date.now() / 1000 - seconds;
    utimesSync(file, t, t);
  };
  return { dir, layout: l, build, builds: () => builds, age };
}

describe("the editor bundle's state, before pictor serve listens", () => {
  it("is missing without outputs, stale when a source is newer than an output, fresh otherwise", async () => {
    const c = layout();
    expect(editorBundleState(c.layout)).toEqual({ state: "missing", what: c.layout.outputs[0] });
    await c.build();
    for (const file of c.layout.outputs) c.age(file, 30);
    c.age(join(c.dir, "src", "main.tsx"), 60);
    expect(editorBundleState(c.layout)).toEqual({ state: "fresh" });
    writeFileSync(join(c.dir, "src", "main.tsx"), "edited");
    expect(editorBundleState(c.layout)).toMatchObject({
      state: "stale",
      source: join(c.dir, "src", "main.tsx"),
    });
  });

  it("builds a missing or stale bundle once, however many servers start together", async () => {
    const c = layout();
    const said: string[] = [];
    const results = await Promise.all(
      [1, 2, 3].map(() => ensureEditorBuilt((why) => said.push(why), { layout: c.layout, build: c.build })),
    );
    expect(c.builds()).toBe(1);
    expect(results.map((r) => r.result).sort()).toEqual(["built", "fresh", "fresh"]);
    expect(said).toEqual([`${c.layout.outputs[0]} is missing`]);
    c.age(join(c.dir, "src", "main.tsx"), 60);
    expect(await ensureEditorBuilt(undefined, { layout: c.layout, build: c.build })).toEqual({
      result: "fresh",
    });
    expect(c.builds()).toBe(1);
  });

  it("says so, and builds nothing, when the code cannot be written", async () => {
    const c = layout();
    const readOnly = () => "dist: EROFS";
    expect(
      await ensureEditorBuilt(undefined, { layout: c.layout, build: c.build, canWrite: readOnly }),
    ).toEqual({
      result: "unwritable",
      because: `${c.layout.outputs[0]} is missing`,
      reason: "dist: EROFS",
      present: false,
    });
    await c.build();
    for (const file of c.layout.outputs) c.age(file, 60); // built a minute before the last edit

    const stale = await ensureEditorBuilt(undefined, {
      layout: c.layout,
      build: c.build,
      canWrite: readOnly,
    });
    expect(stale).toMatchObject({ result: "unwritable", present: true });
    expect(c.builds()).toBe(1);
  });

  it("finds a directory it cannot write in", () => {
    const c = layout();
    expect(unwritable(c.layout)).toBeNull();
    // Nothing can be made inside a file: what a read-only mount or another owner's directory refuses too.
    const file = join(c.dir, "not-a-directory");
    writeFileSync(file, "");
    expect(unwritable({ ...c.layout, writable: [c.dir, file] })).toBe(`${file}: ENOTDIR`);
  });

  it("reports a failed build with its first line, and whether an older bundle is there to serve", async () => {
    const c = layout();
    const failing = async () => {
      throw new Error("Transform failed with 1 error:\nsrc/main.tsx:1:1: ERROR: Unexpected token");
    };
    expect(await ensureEditorBuilt(undefined, { layout: c.layout, build: failing })).toMatchObject({
      result: "failed",
      reason: "Transform failed with 1 error:",
      present: false,
    });
    // The lock was let go: the next start builds.
    expect(await ensureEditorBuilt(undefined, { layout: c.layout, build: c.build })).toMatchObject({
      result: "built",
    });
  });
});
