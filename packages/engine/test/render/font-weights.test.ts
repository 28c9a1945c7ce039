import { readFile } from "node:fs/promises";
import { createEngine } from "@pictor/engine";
import { FONT_FACES, fontFilePath } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { loadCanvasKit } from "../support/canvaskit.ts";
import { documentOf, textLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const line = (weight: number, y: number) =>
  textLayer({
    id: `w${weight}`,
    text: `Inter ${weight}: Sphinx of black quartz`,
    y,
    height: 40,
    width: 560,
    color: "#1D3557",
    font: { family: "Inter", size: 28, weight },
  });

/** Inter drawn with the one face of `weight` the catalogue ships for it, registered alone. */
async function withOnlyFace(weight: number) {
  const face = FONT_FACES.find((f) => f.family === "Inter" && f.weight === weight && f.style === "normal");
  if (!face) throw new Error(`no Inter ${weight}`);
  const bytes = new Uint8Array(await readFile(fontFilePath(face)));
  return createEngine({
    canvasKit: await loadCanvasKit(),
    fonts: { faces: [{ family: "Inter", weight, style: "normal", bytes }], fallback: [] },
  });
}

describe("font weights of the catalogue", () => {
  it("draws weight 300 with Inter's Light face, not the regular one", async () => {
    const doc = documentOf([line(300, 20)], { width: 600, height: 80 });
    await expectGolden("font-weights", "inter-300", doc);
    const shipped = (await testEngine()).render(doc, {});
    const lightOnly = await withOnlyFace(300);
    const regularOnly = await withOnlyFace(400);
    try {
      // The same pixels as an engine that has nothing but the Light face, and others than Regular's.
      expect(Buffer.from(shipped.pixels).equals(Buffer.from(lightOnly.render(doc, {}).pixels))).toBe(true);
      expect(Buffer.from(shipped.pixels).equals(Buffer.from(regularOnly.render(doc, {}).pixels))).toBe(false);
    } finally {
      lightOnly.dispose();
      regularOnly.dispose();
    }
  });

  it("draws each weight from 100 to 900 with its own face", async () => {
    const weights = [100, 200, 300, 400, 500, 600, 700, 800, 900];
    const doc = documentOf(
      weights.map((w, i) => line(w, 10 + i * 44)),
      { width: 600, height: 410 },
    );
    await expectGolden("font-weights", "inter-100-900", doc);
  });
});
