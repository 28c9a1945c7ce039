import { describe, expect, it } from "vitest";
import { documentOf, imageLayer } from "../support/documents.ts";
import { codes, expectGolden } from "../support/render.ts";

// A wide source into square-ish boxes shows the difference between the three fits.
const SRC = "gradient:480x240";

describe("image fit", () => {
  for (const fit of ["cover", "contain", "fill"] as const) {
    it(`draws host-prepared ${fit} pixels 1:1 in the box`, async () => {
      const result = await expectGolden(
        "image-fit",
        fit,
        documentOf([imageLayer({ id: "photo", src: SRC, fit, x: 100, y: 20, width: 200, height: 160 })], {
          background: "#DDDDDD",
        }),
      );
      expect(result.warnings).toEqual([]);
    });
  }

  it("warns image_upscaled when the prepared image was enlarged, naming the slot", async () => {
    const document = documentOf(
      [imageLayer({ id: "photo", src: "", bind: { src: "photo" }, x: 50, y: 20, width: 300, height: 160 })],
      { slots: [{ name: "photo", type: "image" }] },
    );
    const result = await expectGolden("image-fit", "upscaled", document, {
      values: { photo: "checker:64x48" },
    });
    expect(result.warnings).toEqual([
      expect.objectContaining({ code: "image_upscaled", slot: "photo", layer: "photo" }),
    ]);
  });

  it("draws nothing for an empty src or an image the host did not provide", async () => {
    const document = documentOf([
      imageLayer({ id: "empty", src: "" }),
      imageLayer({ id: "missing", src: "gradient:100x100", x: 200 }),
    ]);
    const result = await expectGolden("image-fit", "nothing", document, { images: new Map() });
    expect(codes(result.warnings)).toEqual([]);
  });
});
