import { describe, it } from "vitest";
import { documentOf, imageLayer, shapeLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("opacity", () => {
  it("blends each layer as a whole (fill and stroke overlap blend once)", async () => {
    await expectGolden(
      "opacity",
      "layers",
      documentOf([
        shapeLayer({ id: "base", x: 0, y: 0, width: 400, height: 100, fill: "#1D3557" }),
        shapeLayer({
          id: "half",
          x: 20,
          y: 40,
          width: 110,
          height: 120,
          fill: "#E63946",
          stroke: { color: "#F1FAEE", width: 10 },
          opacity: 0.5,
        }),
        textLayer({
          id: "text",
          text: "Faded",
          x: 150,
          y: 60,
          width: 110,
          height: 60,
          color: "#FFFFFF",
          opacity: 0.6,
          font: { family: "Inter", size: 36, weight: 700 },
        }),
        imageLayer({
          id: "photo",
          src: "checker:100x100",
          x: 280,
          y: 40,
          width: 100,
          height: 120,
          opacity: 0.3,
        }),
      ]),
    );
  });

  it("skips layers with opacity 0 and visible false", async () => {
    await expectGolden(
      "opacity",
      "hidden",
      documentOf([
        shapeLayer({ id: "zero", opacity: 0 }),
        shapeLayer({ id: "invisible", x: 200, visible: false }),
        shapeLayer({ id: "shown", x: 120, y: 80, width: 60, height: 60, fill: "#2A9D8F" }),
      ]),
    );
  });
});
