import { describe, expect, it } from "vitest";
import { documentOf, rectanglesDocument, shapeLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-shape";

describe("shape layers", () => {
  it("draws rectangles with one corner radius, four corner radii, and none", async () => {
    const result = await expectGolden(FEATURE, "rectangles", rectanglesDocument());
    expect(result.warnings).toEqual([]);
    expect(result.opaque).toBe(true);
  });

  it("draws ellipses and circles", async () => {
    await expectGolden(
      FEATURE,
      "ellipses",
      documentOf([
        shapeLayer({
          id: "circle",
          shape: "ellipse",
          x: 20,
          y: 40,
          width: 120,
          height: 120,
          fill: "#F4A261",
        }),
        shapeLayer({
          id: "ellipse",
          shape: "ellipse",
          x: 160,
          y: 60,
          width: 220,
          height: 80,
          fill: "#264653",
        }),
      ]),
    );
  });

  it("draws strokes inside the box, with and without fill", async () => {
    await expectGolden(
      FEATURE,
      "strokes",
      documentOf([
        shapeLayer({
          id: "outline",
          x: 20,
          y: 40,
          width: 100,
          height: 100,
          fill: null,
          stroke: { color: "#1D3557", width: 8 },
        }),
        shapeLayer({
          id: "filled",
          x: 140,
          y: 40,
          width: 100,
          height: 100,
          fill: "#A8DADC",
          corner_radius: 20,
          stroke: { color: "#E63946", width: 6 },
        }),
        shapeLayer({
          id: "ring",
          shape: "ellipse",
          x: 260,
          y: 40,
          width: 120,
          height: 100,
          fill: null,
          stroke: { color: "#2A9D8F", width: 12 },
        }),
      ]),
    );
  });

  it("treats fill null without stroke as drawing nothing", async () => {
    await expectGolden(FEATURE, "nothing", documentOf([shapeLayer({ id: "empty", fill: null })]), {});
  });
});
