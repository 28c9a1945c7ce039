import type { PaintT } from "@pictor/engine";
import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "paint-patterns";

/** Each built-in pattern in a card, then turned, offset, translucent, as a stroke, on text, as the background. */
const patterns = () =>
  documentOf(
    [
      shapeLayer({
        id: "dots",
        x: 10,
        y: 10,
        width: 90,
        height: 80,
        fill: { type: "pattern", pattern: "dots", color: "#1D3557", background: "#F1FAEE", size: 12 },
      }),
      shapeLayer({
        id: "stripes",
        x: 105,
        y: 10,
        width: 90,
        height: 80,
        corner_radius: 16,
        fill: {
          type: "pattern",
          pattern: "stripes",
          color: "#E63946",
          background: "#FFFFFF",
          size: 10,
          angle: 45,
        },
      }),
      shapeLayer({
        id: "grid",
        x: 200,
        y: 10,
        width: 90,
        height: 80,
        fill: {
          type: "pattern",
          pattern: "grid",
          color: "#457B9D",
          background: "#FFFFFF",
          size: 15,
          offset: { x: 5, y: 5 },
        },
      }),
      shapeLayer({
        id: "checks",
        shape: "ellipse",
        x: 295,
        y: 10,
        width: 90,
        height: 80,
        fill: {
          type: "pattern",
          pattern: "checks",
          color: "#2A9D8F",
          background: "#E9C46A",
          size: 20,
          angle: 30,
        },
      }),
      shapeLayer({
        id: "translucent",
        x: 10,
        y: 100,
        width: 120,
        height: 90,
        fill: { type: "pattern", pattern: "dots", color: "#E6394680", size: 9, thickness: 0.8 },
        stroke: {
          width: 6,
          color: {
            type: "pattern",
            pattern: "stripes",
            color: "#1D3557",
            background: "#A8DADC",
            size: 6,
            angle: 90,
          },
        },
      }),
      textLayer({
        id: "word",
        text: "Pattern",
        x: 140,
        y: 100,
        width: 250,
        height: 90,
        font: { family: "Inter", size: 64, weight: 700 },
        color: {
          type: "pattern",
          pattern: "stripes",
          color: "#E63946",
          background: "#1D3557",
          size: 8,
          angle: -30,
        },
      }),
    ],
    {
      background: {
        type: "pattern",
        pattern: "grid",
        color: "#00000022",
        background: "#FAFAFA",
        size: 20,
        thickness: 0.05,
      },
    },
  );

describe("pattern paints", () => {
  it("validates a pattern wherever a paint goes", () => {
    expect(validateDocument(patterns()).ok).toBe(true);
    const bad = documentOf([
      shapeLayer({ fill: { type: "pattern", pattern: "waves", size: 1 } as unknown as PaintT }),
    ]);
    expect(validateDocument(bad).ok).toBe(false);
  });

  it("tiles dots, stripes, a grid and checks with their colours, size, angle and offset", async () => {
    await expectGolden(FEATURE, "built-in", patterns());
  });

  it("draws the same tiles at scale 2, crisp (the tile is vector, rasterised at the device scale)", async () => {
    await expectGolden(FEATURE, "built-in-scale-2", patterns(), { scale: 2 });
  });

  it("binds a colour slot to the whole paint, replacing the pattern with its colour", async () => {
    const document = documentOf(
      [
        shapeLayer({
          id: "bound",
          x: 20,
          y: 20,
          width: 160,
          height: 160,
          fill: { type: "pattern", pattern: "dots", color: "#1D3557", size: 12 },
          bind: { fill: "brand" },
        }),
      ],
      { slots: [{ name: "brand", type: "color" }] },
    );
    await expectGolden(FEATURE, "bound", document, { values: { brand: "#E63946" } });
  });
});
