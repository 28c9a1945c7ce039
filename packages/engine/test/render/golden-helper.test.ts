import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rectanglesDocument } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { compareGolden, goldenOutputDir, unpremultiply, updatingGoldens } from "../support/golden.ts";

const outDir = goldenOutputDir("layer-shape");

describe("golden comparison", () => {
  // Comparing a deliberately altered render would overwrite the golden in update mode.
  it.skipIf(updatingGoldens)("counts a single changed pixel and writes actual and diff images", async () => {
    const engine = await testEngine();
    const result = engine.render(rectanglesDocument(), {});
    expect((await compareGolden(result, "layer-shape", "rectangles")).differing).toBe(0);
    const altered = { ...result, pixels: Uint8Array.from(result.pixels) };
    altered.pixels[4 * 1000] = (altered.pixels[4 * 1000] ?? 0) ^ 1;
    const outcome = await compareGolden(altered, "layer-shape", "rectangles");
    expect(outcome.differing).toBe(1);
    expect(outcome.message).toContain("1 pixel(s) differ");
    expect(existsSync(join(outDir, "rectangles.actual.png"))).toBe(true);
    expect(existsSync(join(outDir, "rectangles.diff.png"))).toBe(true);
  });

  it("unpremultiplies exactly for opaque and fully transparent pixels", () => {
    expect(Array.from(unpremultiply(Uint8Array.of(10, 20, 30, 255, 0, 0, 0, 0, 64, 32, 0, 128)))).toEqual([
      10, 20, 30, 255, 0, 0, 0, 0, 128, 64, 0, 128,
    ]);
  });
});
