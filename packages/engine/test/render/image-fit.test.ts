import { describe, expect, it } from "vitest";
import { documentOf, imageLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
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

  it("blends straight-alpha pixels (alpha ramp across, red to blue down) over the frame", async () => {
    const document = documentOf(
      [imageLayer({ id: "ramp", src: "ramp", x: 40, y: 20, width: 320, height: 160 })],
      {
        background: "#202020",
      },
    );
    const [request] = (await testEngine()).planImages(document, {});
    if (!request) throw new Error("expected an image request");
    const { width, height } = request;
    const rgba = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        rgba.set(
          [
            255 - Math.round((255 * y) / height),
            64,
            Math.round((255 * y) / height),
            Math.round((255 * x) / (width - 1)),
          ],
          i,
        );
      }
    }
    await expectGolden("image-fit", "straight-alpha", document, {
      images: new Map([[request.key, { width, height, rgba, upscaled: false }]]),
    });
  });
});
