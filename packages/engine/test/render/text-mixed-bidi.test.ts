import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("mixed Latin and Arabic", () => {
  it("orders runs by bidi in one LTR line (first strong character is Latin)", async () => {
    const result = await expectGolden(
      "text-mixed-bidi",
      "latin-first",
      documentOf(
        [
          textLayer({
            text: "Pictor يرسم الصور 2026 fast",
            font: { family: "Noto Sans", size: 32 },
            width: 560,
            height: 60,
          }),
        ],
        {
          width: 600,
          height: 100,
        },
      ),
    );
    expect(result.warnings.map((w) => w.code)).toEqual(["glyph_fallback"]);
  });

  it("makes the paragraph RTL when the first strong character is Arabic", async () => {
    await expectGolden(
      "text-mixed-bidi",
      "arabic-first",
      documentOf(
        [
          textLayer({
            text: "مرحبا Pictor ومرحبا API",
            font: { family: "Noto Sans Arabic", size: 32 },
            width: 560,
            height: 60,
            align: "right",
          }),
        ],
        { width: 600, height: 100 },
      ),
    );
  });
});
