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

  it("wraps a Hebrew paragraph right to left over several lines ('.' from Noto Sans, the Hebrew face's companion)", async () => {
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
    // Noto Sans Hebrew has no '.', by design: Noto Sans, drawn first for what it lacks, is part of
    // the design, not a fallback (the golden shows the same pixels as when it was one).
    expect(result.warnings).toEqual([]);
  });

  it("still reports what neither the Hebrew face nor its companion has", async () => {
    const result = await expectGolden(
      "text-rtl",
      "hebrew-with-thai",
      documentOf(
        [
          textLayer({
            text: "מבצע 50%, רק היום! สวัสดี",
            font: { family: "Noto Sans Hebrew", size: 24 },
            width: 360,
            height: 60,
            align: "right",
          }),
        ],
        { height: 80 },
      ),
    );
    expect(codes(result.warnings)).toEqual(["glyph_fallback"]);
    // The Thai letters came from a fallback; the digits, '%', ',' and '!' from the companion.
    expect(result.warnings[0]?.message).toContain("has no glyph for ส ว ั ด ี");
    expect(result.warnings[0]?.message).not.toMatch(/[0-9%,!]/);
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
