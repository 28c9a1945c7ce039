import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { codes, expectGolden } from "../support/render.ts";

const ARABIC =
  "تصميم القوالب سهل وسريع. اكتب النص الذي تريده وسيقوم المحرك بتوزيعه على عدة أسطر من اليمين إلى اليسار.";
const HEBREW = "עיצוב תבניות פשוט ומהיר. כתבו את הטקסט שלכם והמנוע יפרוש אותו על פני כמה שורות מימין לשמאל.";

describe("right-to-left paragraphs", () => {
  it("wraps an Arabic paragraph right to left over several lines", async () => {
    const result = await expectGolden(
      "text-rtl",
      "arabic",
      documentOf(
        [
          textLayer({
            text: ARABIC,
            font: { family: "Noto Sans Arabic", size: 28 },
            width: 360,
            height: 260,
            align: "right",
          }),
        ],
        { height: 300 },
      ),
    );
    expect(result.warnings).toEqual([]);
  });

  it("wraps a Hebrew paragraph right to left over several lines (the Hebrew face lacks '.')", async () => {
    const result = await expectGolden(
      "text-rtl",
      "hebrew",
      documentOf(
        [
          textLayer({
            text: HEBREW,
            font: { family: "Noto Sans Hebrew", size: 28 },
            width: 360,
            height: 260,
            align: "right",
          }),
        ],
        { height: 300 },
      ),
    );
    expect(codes(result.warnings)).toEqual(["glyph_fallback"]);
    expect(result.warnings[0]?.message).toContain("no glyph for .");
  });

  it("keeps align left physical for RTL text (the layout is the designer's), still ordering lines RTL", async () => {
    const result = await expectGolden(
      "text-rtl",
      "arabic-align-left-fallback-font",
      documentOf(
        [textLayer({ text: ARABIC, font: { family: "Inter", size: 24 }, width: 360, height: 260 })],
        {
          height: 300,
        },
      ),
    );
    expect(codes(result.warnings)).toEqual(["glyph_fallback"]);
  });
});
