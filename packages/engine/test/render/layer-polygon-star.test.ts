import { describe, expect, it } from "vitest";
import { documentOf, polygonLayer, starLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-polygon-star";

const SUNSET = {
  type: "linear" as const,
  angle: 180,
  stops: [
    { offset: 0, color: "#F4A261" },
    { offset: 1, color: "#E63946" },
  ],
};

/** Triangle, diamond, hexagon (rounded), a wide octagon, and a 64-sided near circle. */
function polygonsDocument() {
  return documentOf([
    polygonLayer({ id: "triangle", x: 10, y: 20, width: 70, height: 70, sides: 3, fill: "#E63946" }),
    polygonLayer({ id: "diamond", x: 90, y: 20, width: 70, height: 70, sides: 4, fill: "#457B9D" }),
    polygonLayer({
      id: "hexagon",
      x: 170,
      y: 20,
      width: 70,
      height: 70,
      sides: 6,
      fill: "#2A9D8F",
      corner_radius: 10,
    }),
    polygonLayer({ id: "wide", x: 250, y: 20, width: 140, height: 70, sides: 8, fill: SUNSET }),
    polygonLayer({
      id: "round",
      x: 10,
      y: 110,
      width: 70,
      height: 70,
      sides: 64,
      fill: null,
      stroke: { color: "#1D3557", width: 4 },
    }),
    // The same pentagon with its stroke inside, centred on and outside the outline.
    ...(["inside", "center", "outside"] as const).map((align, i) =>
      polygonLayer({
        id: `stroke-${align}`,
        x: 110 + i * 95,
        y: 110,
        width: 70,
        height: 70,
        sides: 5,
        fill: "#A8DADC",
        stroke: { color: "#1D355799", width: 8, align },
      }),
    ),
  ]);
}

/** Stars: default inner radius, thin and fat, rounded corners, gradient fill and stroke. */
function starsDocument() {
  return documentOf([
    starLayer({ id: "five", x: 10, y: 20, width: 80, height: 80, points: 5 }),
    starLayer({
      id: "thin",
      x: 105,
      y: 20,
      width: 80,
      height: 80,
      points: 8,
      inner_radius: 0.25,
      fill: "#264653",
    }),
    starLayer({
      id: "rounded",
      x: 200,
      y: 20,
      width: 80,
      height: 80,
      points: 5,
      inner_radius: 0.45,
      corner_radius: 6,
      fill: "#E9C46A",
    }),
    starLayer({
      id: "burst",
      x: 295,
      y: 20,
      width: 90,
      height: 80,
      points: 24,
      inner_radius: 0.8,
      fill: {
        type: "radial",
        stops: [
          { offset: 0, color: "#FFFFFF" },
          { offset: 1, color: "#E63946" },
        ],
      },
    }),
    starLayer({
      id: "outlined",
      x: 10,
      y: 110,
      width: 80,
      height: 80,
      points: 5,
      fill: null,
      stroke: { color: SUNSET, width: 6, join: "round", align: "center" },
    }),
    starLayer({
      id: "triangle-star",
      x: 105,
      y: 110,
      width: 80,
      height: 80,
      points: 3,
      inner_radius: 1,
      fill: "#6D597A",
    }),
    starLayer({
      id: "rotated",
      x: 220,
      y: 110,
      width: 140,
      height: 80,
      points: 6,
      inner_radius: 0.5,
      rotation: 15,
      opacity: 0.7,
      fill: "#2A9D8F",
      stroke: { color: "#1D3557", width: 4 },
    }),
  ]);
}

describe("polygon layers", () => {
  it("draws regular polygons fitted to the box, rounded, with gradients and inside, centred and outside strokes", async () => {
    const result = await expectGolden(FEATURE, "polygons", polygonsDocument());
    expect(result.warnings).toEqual([]);
  });

  it("draws polygons at scale 2", async () => {
    await expectGolden(FEATURE, "polygons-2x", polygonsDocument(), { scale: 2 });
  });

  it("takes fill and stroke colours from bound slots", async () => {
    await expectGolden(
      FEATURE,
      "bound",
      documentOf(
        [
          polygonLayer({
            id: "badge",
            x: 140,
            y: 40,
            width: 120,
            height: 120,
            sides: 6,
            fill: SUNSET,
            stroke: { color: "#000000", width: 6 },
            bind: { "fill.stops[1].color": "brand", "stroke.color": "ink" },
          }),
        ],
        {
          slots: [
            { name: "brand", type: "color" },
            { name: "ink", type: "color", default: "#1D3557" },
          ],
        },
      ),
      { values: { brand: "#457B9D" } },
    );
  });
});

describe("star layers", () => {
  it("draws stars with inner radii, rounded corners, gradients and strokes", async () => {
    await expectGolden(FEATURE, "stars", starsDocument());
  });

  it("draws stars at scale 2", async () => {
    await expectGolden(FEATURE, "stars-2x", starsDocument(), { scale: 2 });
  });
});
