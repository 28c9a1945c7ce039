import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { documentOf, shapeLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { compareGolden, unpremultiply } from "../support/golden.ts";

const updating = process.env.PICTOR_UPDATE_GOLDENS === "1";
const outDir = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "..",
  "test-output",
  "engine",
  "layer-shape",
);

describe("golden comparison", () => {
  // Comparing a deliberately altered render would overwrite the golden in update mode.
  it.skipIf(updating)("counts a single changed pixel and writes actual and diff images", async () => {
    const engine = await testEngine();
    const document = documentOf([
      shapeLayer({ id: "square", x: 20, y: 40, width: 100, height: 100 }),
      shapeLayer({ id: "round", x: 140, y: 40, width: 100, height: 100, fill: "#457B9D", corner_radius: 24 }),
      shapeLayer({
        id: "mixed",
        x: 260,
        y: 40,
        width: 120,
        height: 100,
        fill: "#2A9D8F",
        corner_radius: [0, 40, 10, 60],
      }),
    ]);
    const result = engine.render(document, {});
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
