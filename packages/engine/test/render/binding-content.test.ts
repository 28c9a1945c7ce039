import { describe, expect, it } from "vitest";
import { documentOf, imageLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const document = documentOf(
  [
    imageLayer({
      id: "photo",
      src: "checker:200x200",
      bind: { src: "photo" },
      x: 20,
      y: 20,
      width: 160,
      height: 160,
    }),
    textLayer({
      id: "headline",
      text: "Designer's headline",
      bind: { text: "headline" },
      x: 200,
      width: 180,
      font: { family: "Inter", size: 20 },
    }),
    textLayer({
      id: "tagline",
      text: "Designer's tagline",
      bind: { text: "tagline" },
      x: 200,
      y: 120,
      width: 180,
      height: 60,
      font: { family: "Inter", size: 20 },
    }),
  ],
  {
    slots: [
      { name: "photo", type: "image" },
      { name: "headline", type: "text" },
      { name: "tagline", type: "text", default: "Default tagline" },
    ],
  },
);

describe("binding text and image sources", () => {
  it("keeps the designer's text and image for unnamed slots; uses a slot default with a warning", async () => {
    const result = await expectGolden("binding-content", "design-values", document);
    expect(result.warnings).toEqual([
      expect.objectContaining({ code: "slot_default_used", slot: "tagline", layer: "tagline" }),
    ]);
  });

  it("replaces text and image source with slot values", async () => {
    const result = await expectGolden("binding-content", "bound-values", document, {
      values: { photo: "gradient:320x320", headline: "Request headline", tagline: "Request tagline" },
    });
    expect(result.warnings).toEqual([]);
  });
});
