import { describe, it } from "vitest";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("vertical alignment", () => {
  it("places the text block at the top, middle and bottom of its box", async () => {
    const layers = (["top", "middle", "bottom"] as const).flatMap((vertical_align, index) => [
      shapeLayer({
        id: `box-${vertical_align}`,
        x: 10 + index * 130,
        y: 20,
        width: 120,
        height: 160,
        fill: "#EEF3F8",
      }),
      textLayer({
        id: vertical_align,
        text: `${vertical_align} aligned`,
        x: 10 + index * 130,
        y: 20,
        width: 120,
        height: 160,
        align: "center",
        vertical_align,
        font: { family: "Inter", size: 22 },
      }),
    ]);
    await expectGolden("text-vertical-align", "top-middle-bottom", documentOf(layers));
  });
});
