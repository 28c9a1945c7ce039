import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("text layers", () => {
  it("wraps text in its box in the layer's family and colour, keeping hard line breaks", async () => {
    const result = await expectGolden(
      "layer-text",
      "wrapped",
      documentOf([
        textLayer({
          text: "A text layer wraps at its box width.\nHard breaks stay.",
          color: "#1D3557",
          font: { family: "Merriweather", size: 24 },
        }),
      ]),
    );
    expect(result.warnings).toEqual([]);
  });

  it("draws translucent text colours (#RRGGBBAA)", async () => {
    await expectGolden(
      "layer-text",
      "translucent-color",
      documentOf([
        textLayer({ text: "Half ink", color: "#E6394680", font: { family: "Inter", size: 48, weight: 700 } }),
      ]),
    );
  });

  it("draws nothing for empty text", async () => {
    const result = await expectGolden("layer-text", "empty", documentOf([textLayer({ text: "" })]));
    expect(result.warnings).toEqual([]);
  });
});
