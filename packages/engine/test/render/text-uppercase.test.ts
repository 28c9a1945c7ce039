import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("uppercase transform", () => {
  it("uppercases bound text including accented letters and ß", async () => {
    const document = documentOf(
      [textLayer({ id: "title", text: "", transform: "uppercase", bind: { text: "title" }, width: 360 })],
      { slots: [{ name: "title", type: "text" }] },
    );
    const result = await expectGolden("text-uppercase", "accents", document, {
      values: { title: "größe café élan" },
    });
    expect(result.warnings).toEqual([]);
  });
});
