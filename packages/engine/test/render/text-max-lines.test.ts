import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const LONG =
  "This paragraph is much longer than two lines, so the renderer has to cut it and end the last visible line with an ellipsis.";

describe("max lines with ellipsis", () => {
  it("cuts after max_lines, ends with …, and warns text_truncated naming the slot", async () => {
    const document = documentOf(
      [
        textLayer({
          id: "body",
          text: "",
          max_lines: 2,
          bind: { text: "body" },
          font: { family: "Inter", size: 24 },
        }),
      ],
      { slots: [{ name: "body", type: "text" }] },
    );
    const result = await expectGolden("text-max-lines", "two-lines", document, { values: { body: LONG } });
    expect(result.warnings).toEqual([
      expect.objectContaining({ code: "text_truncated", slot: "body", layer: "body" }),
    ]);
  });

  it("does not warn when the text fits in max_lines", async () => {
    const result = await expectGolden(
      "text-max-lines",
      "fits",
      documentOf([textLayer({ text: "Short enough.", max_lines: 2, font: { family: "Inter", size: 24 } })]),
    );
    expect(result.warnings).toEqual([]);
  });

  it("cuts text that overflows the box height with fit none, with … and text_truncated", async () => {
    const result = await expectGolden(
      "text-max-lines",
      "box-overflow",
      documentOf([
        textLayer({ id: "overflow", text: LONG, height: 70, font: { family: "Inter", size: 24 } }),
      ]),
    );
    expect(result.warnings.map((w) => [w.code, w.layer])).toEqual([["text_truncated", "overflow"]]);
  });

  it("ends the last line with … when the cut falls on a hard line break", async () => {
    const result = await expectGolden(
      "text-max-lines",
      "hard-breaks",
      documentOf([
        textLayer({ id: "list", text: "Line one\nLine two\nLine three", max_lines: 2, height: 80 }),
        textLayer({
          id: "wide",
          text: "Größe 👍 eins\nA second line that fills the width\nDrei",
          max_lines: 2,
          y: 100,
          height: 80,
        }),
      ]),
    );
    expect(result.warnings.map((w) => [w.code, w.layer])).toEqual([
      ["text_truncated", "list"],
      ["text_truncated", "wide"],
      ["glyph_fallback", "wide"],
    ]);
  });
});
