import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("Latin shaping", () => {
  it("kerns AVATAR and forms fi/fl ligatures (HarfBuzz via Paragraph)", async () => {
    for (const family of ["Inter", "Lora", "Playfair Display"]) {
      const result = await expectGolden(
        "text-latin-shaping",
        family.toLowerCase().replaceAll(" ", "-"),
        documentOf(
          [textLayer({ text: "AVATAR office fi fl", font: { family, size: 44 }, width: 560, height: 80 })],
          { width: 600, height: 120 },
        ),
      );
      expect(result.warnings).toEqual([]);
    }
  });
});
