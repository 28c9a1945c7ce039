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

describe("image align", () => {
  // Wide sources in tall boxes show the vertical anchor, tall ones in wide boxes the horizontal one;
  // the bottom row crops with cover from the left and from the right.
  const alignDocument = () =>
    documentOf(
      [
        ...(["top", "center", "bottom"] as const).map((y, i) =>
          imageLayer({
            id: `v-${y}`,
            src: "gradient:480x240",
            fit: "contain",
            align: { y },
            x: 10 + i * 70,
            y: 10,
            width: 60,
            height: 120,
          }),
        ),
        ...(["left", "center", "right"] as const).map((x, i) =>
          imageLayer({
            id: `h-${x}`,
            src: "gradient:120x240",
            fit: "contain",
            align: { x, y: "bottom" },
            x: 220,
            y: 10 + i * 45,
            width: 170,
            height: 40,
          }),
        ),
        imageLayer({
          id: "cover-left",
          src: "gradient:480x240",
          fit: "cover",
          align: { x: "left" },
          x: 10,
          y: 140,
          width: 90,
          height: 50,
        }),
        imageLayer({
          id: "cover-right",
          src: "gradient:480x240",
          fit: "cover",
          align: { x: "right" },
          x: 110,
          y: 140,
          width: 90,
          height: 50,
        }),
      ],
      { background: "#DDDDDD" },
    );

  it("keeps a contained picture to the side its align names, and crops cover from that side", async () => {
    await expectGolden("image-fit", "align", alignDocument());
  });

  it("aligns the same way at scale 2", async () => {
    await expectGolden("image-fit", "align-scale-2", alignDocument(), { scale: 2 });
  });

  it("asks the host for an anchored contain (focal) and keeps centred requests' keys as before", async () => {
    const engine = await testEngine();
    const requests = engine.planImages(alignDocument(), {});
    const top = requests.find((r) => r.width === 60 && r.focal.y === 0);
    expect(top?.key).toBe("60x120|contain|0.5,0|gradient:480x240");
    const centred = requests.filter((r) => r.fit === "contain" && r.key.includes("|-|"));
    expect(centred.map((r) => r.focal)).toEqual([{ x: 0.5, y: 0.5 }]);
  });
});
