import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("colour emoji", () => {
  it("draws emoji in colour with skin tones, flags and ZWJ sequences via fallback", async () => {
    const result = await expectGolden(
      "text-emoji",
      "sequences",
      documentOf(
        [
          textLayer({
            text: "Launch day 🚀🎉\n👍 👍🏽 👋🏿 🇯🇵 🇧🇷 🇺🇦\n👩‍💻 🏳️‍🌈 ❤️",
            font: { family: "Inter", size: 36 },
            width: 380,
            height: 170,
          }),
        ],
        { height: 200 },
      ),
    );
    expect(result.warnings.map((w) => w.code)).toEqual(["glyph_fallback"]);
    expect(result.warnings[0]?.message).toContain("🚀");
  });
});
