import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("glyph fallback", () => {
  it("falls back along the font set's list and warns naming the slot and layer", async () => {
    const document = documentOf(
      [
        textLayer({
          id: "headline",
          text: "",
          font: { family: "Bebas Neue", size: 40 },
          bind: { text: "headline" },
          width: 560,
          height: 60,
        }),
      ],
      { slots: [{ name: "headline", type: "text" }], width: 600, height: 100 },
    );
    const result = await expectGolden("text-glyph-fallback", "bebas-cyrillic-greek", document, {
      values: { headline: "Sale Распродажа Έκπτωση" },
    });
    expect(result.warnings).toHaveLength(1);
    const [warning] = result.warnings;
    expect(warning).toMatchObject({ code: "glyph_fallback", slot: "headline", layer: "headline" });
    expect(warning?.message).toContain("Bebas Neue");
    expect(warning?.message).toContain("Р");
  });

  it("does not warn when the layer's family has every glyph", async () => {
    const result = await expectGolden(
      "text-glyph-fallback",
      "inter-complete",
      documentOf([textLayer({ text: "Crème brûlée — 12 €", height: 60 })], { height: 100 }),
    );
    expect(result.warnings).toEqual([]);
  });

  it("warns when the layer's family is not in the font set at all, and still draws via the fallback list", async () => {
    const result = await expectGolden(
      "text-glyph-fallback",
      "unknown-family",
      documentOf(
        [textLayer({ id: "t", text: "Comic", font: { family: "Comic Sans MS", size: 32 }, height: 60 })],
        {
          height: 100,
        },
      ),
    );
    expect(result.warnings).toEqual([
      expect.objectContaining({
        code: "font_missing",
        layer: "t",
        slot: null,
        message: expect.stringContaining("is not in the font set"),
        details: expect.objectContaining({ family: "Comic Sans MS" }),
      }),
    ]);
  });
});
