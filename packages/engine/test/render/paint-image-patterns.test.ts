import { estimateFrameCost, frameImages, type PaintT, validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "paint-image-patterns";

/** Image tiles: covered, contained with a tall tile, turned and offset, on a stroke, on text, as the background. */
const patterns = () =>
  documentOf(
    [
      shapeLayer({
        id: "cover",
        x: 10,
        y: 10,
        width: 120,
        height: 90,
        fill: { type: "pattern", image: "gradient:64x48", size: 40 },
      }),
      shapeLayer({
        id: "contain",
        shape: "ellipse",
        x: 140,
        y: 10,
        width: 120,
        height: 90,
        fill: { type: "pattern", image: "gradient:64x48", size: 30, tile_height: 40, fit: "contain" },
      }),
      shapeLayer({
        id: "turned",
        x: 270,
        y: 10,
        width: 120,
        height: 90,
        corner_radius: 18,
        fill: { type: "pattern", image: "checker:32x32", size: 24, angle: 30, offset: { x: 6, y: 4 } },
        stroke: {
          width: 6,
          color: { type: "pattern", image: "gradient:64x48", size: 16, fit: "fill" },
        },
      }),
      textLayer({
        id: "word",
        text: "Tiles",
        x: 10,
        y: 105,
        width: 380,
        height: 90,
        align: "center",
        font: { family: "Inter", size: 80, weight: 800 },
        color: { type: "pattern", image: "checker:32x32", size: 12, angle: -20 },
      }),
    ],
    { background: { type: "pattern", image: "gradient:64x48", size: 50, fit: "fill" } },
  );

describe("image pattern paints", () => {
  it("validates an image pattern wherever a paint goes, and refuses a bad one", () => {
    expect(validateDocument(patterns()).ok).toBe(true);
    const bad = documentOf([shapeLayer({ fill: { type: "pattern", image: "" } as unknown as PaintT })]);
    const result = validateDocument(bad);
    expect(result.ok ? [] : result.errors).toEqual([
      { path: "frames[0].layers[0].fill.image", message: "must not be empty" },
    ]);
  });

  it("plans each tile as an image the host prepares (the background's too), counted by the cost estimate", () => {
    const requests = frameImages(patterns(), { scale: 2 });
    expect(requests.map((r) => `${r.src} ${r.width}x${r.height} ${r.fit}`).sort()).toEqual([
      "checker:32x32 24x24 cover",
      "checker:32x32 48x48 cover",
      "gradient:64x48 100x100 fill",
      "gradient:64x48 32x32 fill",
      "gradient:64x48 60x80 contain",
      "gradient:64x48 80x80 cover",
    ]);
    const cost = estimateFrameCost(patterns(), { scale: 2 });
    expect(cost.imageBytes).toBe(requests.reduce((sum, r) => sum + 4 * r.width * r.height, 0));
    // A colour slot bound to the paint replaces it: no image is asked for.
    const bound = documentOf(
      [
        shapeLayer({
          fill: { type: "pattern", image: "checker:32x32" },
          bind: { fill: "brand" },
        }),
      ],
      { slots: [{ name: "brand", type: "color" }] },
    );
    expect(frameImages(bound, {})).toEqual([]);
  });

  it("tiles images covered, contained, turned and offset, on strokes, text and the background", async () => {
    await expectGolden(FEATURE, "image", patterns());
  });

  it("draws the same tiles at scale 2 (each tile prepared at the device scale)", async () => {
    await expectGolden(FEATURE, "image-scale-2", patterns(), { scale: 2 });
  });
});
