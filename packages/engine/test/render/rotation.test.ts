import { describe, it } from "vitest";
import { documentOf, imageLayer, shapeLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("rotation", () => {
  it("rotates shapes, text and images clockwise about their centre", async () => {
    await expectGolden(
      "rotation",
      "layers",
      documentOf(
        [
          shapeLayer({
            id: "outline",
            x: 30,
            y: 60,
            width: 100,
            height: 60,
            fill: null,
            stroke: { color: "#BBBBBB", width: 1 },
          }),
          shapeLayer({ id: "rect", x: 30, y: 60, width: 100, height: 60, fill: "#E63946", rotation: 30 }),
          textLayer({ id: "text", text: "Tilted", x: 150, y: 70, width: 110, height: 40, rotation: -15 }),
          imageLayer({
            id: "photo",
            src: "gradient:120x120",
            x: 280,
            y: 40,
            width: 100,
            height: 100,
            rotation: 45,
            corner_radius: 12,
          }),
        ],
        { height: 220 },
      ),
    );
  });

  it("rotates at fractional scale", async () => {
    await expectGolden(
      "rotation",
      "scale-1.5",
      documentOf([
        shapeLayer({
          id: "rect",
          x: 40,
          y: 40,
          width: 120,
          height: 60,
          fill: "#457B9D",
          rotation: 90,
          corner_radius: 10,
        }),
      ]),
      { scale: 1.5 },
    );
  });
});
