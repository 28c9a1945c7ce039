import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ImageInvalidError, ImageTooLargeError } from "../src/errors.ts";
import { coverRegion, prepareImage } from "../src/prepare-image.ts";
import { expectClose, pixelAt, pngClaiming, solid, splitImage } from "./fixtures.ts";

const RED = [255, 0, 0, 255];
const BLUE = [0, 0, 255, 255];
const box = (width: number, height: number, fit: "cover" | "contain" | "fill", x = 0.5, y = 0.5) => ({
  width,
  height,
  fit,
  focal: { x, y },
});

describe("coverRegion", () => {
  it("keeps the box's aspect ratio at the largest size the source allows", () => {
    expect(coverRegion(400, 200, 100, 100, { x: 0.5, y: 0.5 })).toEqual({
      left: 100,
      top: 0,
      width: 200,
      height: 200,
    });
  });

  it("centres on the focal point and slides back inside near an edge", () => {
    expect(coverRegion(400, 200, 100, 100, { x: 0.1, y: 0.5 }).left).toBe(0);
    expect(coverRegion(400, 200, 100, 100, { x: 0.9, y: 0.5 }).left).toBe(200);
    expect(coverRegion(400, 200, 100, 100, { x: 0.6, y: 0.5 }).left).toBe(140);
    expect(coverRegion(200, 400, 100, 50, { x: 0.5, y: 1 })).toEqual({
      left: 0,
      top: 300,
      width: 200,
      height: 100,
    });
  });
});

describe("prepareImage fits", () => {
  it("cover crops around the focal point", async () => {
    const { png } = await splitImage(400, 200, [255, 0, 0], [0, 0, 255]);
    const left = await prepareImage(png, box(100, 100, "cover", 0, 0.5));
    const right = await prepareImage(png, box(100, 100, "cover", 1, 0.5));
    const centre = await prepareImage(png, box(100, 100, "cover"));
    expect([left.width, left.height, left.rgba.byteLength]).toEqual([100, 100, 100 * 100 * 4]);
    expect(pixelAt(left.rgba, 100, 99, 50)).toEqual(RED);
    expect(pixelAt(right.rgba, 100, 0, 50)).toEqual(BLUE);
    expect(pixelAt(centre.rgba, 100, 10, 50)).toEqual(RED);
    expect(pixelAt(centre.rgba, 100, 90, 50)).toEqual(BLUE);
    expect(left.upscaled).toBe(false);
  });

  it("contain centres the whole image on a transparent box of exactly the box size", async () => {
    const png = await solid(200, 100, "#ff0000").png().toBuffer();
    const image = await prepareImage(png, box(100, 100, "contain"));
    expect([image.width, image.height]).toEqual([100, 100]);
    expect(pixelAt(image.rgba, 100, 50, 5)[3]).toBe(0);
    expect(pixelAt(image.rgba, 100, 50, 95)[3]).toBe(0);
    expect(pixelAt(image.rgba, 100, 50, 50)).toEqual(RED);
    expect(image.upscaled).toBe(false);
  });

  it("contain keeps the fitted image to the side or corner its anchor names", async () => {
    const png = await solid(200, 100, "#ff0000").png().toBuffer();
    const top = await prepareImage(png, box(100, 100, "contain", 0.5, 0));
    expect(pixelAt(top.rgba, 100, 50, 5)).toEqual(RED);
    expect(pixelAt(top.rgba, 100, 50, 49)).toEqual(RED);
    expect(pixelAt(top.rgba, 100, 50, 51)[3]).toBe(0);
    const bottom = await prepareImage(png, box(100, 100, "contain", 0.5, 1));
    expect(pixelAt(bottom.rgba, 100, 50, 49)[3]).toBe(0);
    expect(pixelAt(bottom.rgba, 100, 50, 95)).toEqual(RED);
    const tall = await solid(50, 100, "#ff0000").png().toBuffer();
    const right = await prepareImage(tall, box(100, 100, "contain", 1, 0.5));
    expect(pixelAt(right.rgba, 100, 49, 50)[3]).toBe(0);
    expect(pixelAt(right.rgba, 100, 95, 50)).toEqual(RED);
    const left = await prepareImage(tall, box(100, 100, "contain", 0, 1));
    expect(pixelAt(left.rgba, 100, 5, 50)).toEqual(RED);
    expect(pixelAt(left.rgba, 100, 51, 50)[3]).toBe(0);
    const centred = await prepareImage(tall, box(100, 100, "contain"));
    expect(pixelAt(centred.rgba, 100, 20, 50)[3]).toBe(0);
    expect(pixelAt(centred.rgba, 100, 50, 50)).toEqual(RED);
  });

  it("fill stretches to the box", async () => {
    const { png } = await splitImage(200, 100, [255, 0, 0], [0, 0, 255]);
    const image = await prepareImage(png, box(50, 80, "fill"));
    expect([image.width, image.height]).toEqual([50, 80]);
    expect(pixelAt(image.rgba, 50, 2, 79)).toEqual(RED);
    expect(pixelAt(image.rgba, 50, 47, 0)).toEqual(BLUE);
  });

  it("flags a source with fewer pixels than the box as upscaled", async () => {
    const png = await solid(10, 10, "#00ff00").png().toBuffer();
    for (const fit of ["cover", "contain", "fill"] as const) {
      expect((await prepareImage(png, box(100, 100, fit))).upscaled, fit).toBe(true);
    }
  });
});

describe("prepareImage normalises sources", () => {
  it("applies EXIF orientation before fitting", async () => {
    const { raw } = await splitImage(200, 100, [255, 0, 0], [0, 0, 255]);
    // Orientation 6: the stored image is shown turned 90° clockwise, so its left half ends up on top.
    const jpeg = await sharp(raw, { raw: { width: 200, height: 100, channels: 3 } })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    const image = await prepareImage(jpeg, box(100, 200, "fill"));
    expectClose(pixelAt(image.rgba, 100, 50, 10), RED, 8);
    expectClose(pixelAt(image.rgba, 100, 50, 190), BLUE, 8);
    expect(image.upscaled).toBe(false);
  });

  it("converts a 16-bit PNG to 8-bit sRGB", async () => {
    const png16 = await solid(20, 20, "#0080ff").png().toColourspace("rgb16").toBuffer();
    expect((await sharp(png16).metadata()).depth).toBe("ushort");
    const image = await prepareImage(png16, box(10, 10, "fill"));
    expect(image.rgba.byteLength).toBe(10 * 10 * 4);
    expectClose(pixelAt(image.rgba, 10, 5, 5), [0, 128, 255, 255], 1);
  });

  it("converts a CMYK JPEG to sRGB", async () => {
    const cmyk = await solid(20, 20, "#c86432").toColourspace("cmyk").jpeg().toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe("cmyk");
    const image = await prepareImage(cmyk, box(10, 10, "fill"));
    expect(image.rgba.byteLength).toBe(10 * 10 * 4);
    expectClose(pixelAt(image.rgba, 10, 5, 5), [200, 100, 50, 255], 40);
  });

  it("takes only the first frame of an animation", async () => {
    const frames = Buffer.concat([
      await solid(16, 16, "#ff0000").raw().toBuffer(),
      await solid(16, 16, "#0000ff").raw().toBuffer(),
    ]);
    const gif = await sharp(frames, { raw: { width: 16, height: 32, channels: 3, pageHeight: 16 } })
      .gif()
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const image = await prepareImage(gif, box(16, 16, "fill"));
    expectClose(pixelAt(image.rgba, 16, 8, 8), RED, 8);
  });
});

describe("prepareImage rejects bad input with a typed error", () => {
  const target = box(50, 50, "cover");
  const origin = { slot: "photo", src: "upload.png" };

  async function rejection(bytes: Uint8Array, limits?: Parameters<typeof prepareImage>[3]) {
    try {
      await prepareImage(bytes, target, origin, limits);
    } catch (error) {
      return error as ImageInvalidError;
    }
    throw new Error("expected prepareImage to reject");
  }

  it("a truncated JPEG", async () => {
    const jpeg = await solid(300, 200, "#336699").jpeg().toBuffer();
    const error = await rejection(jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    expect(error).toBeInstanceOf(ImageInvalidError);
    expect(error.code).toBe("image_invalid");
    expect(error.slot).toBe("photo");
    expect(error.message).toMatch(/slot "photo"/);
  });

  it("a truncated PNG", async () => {
    const png = await sharp(Buffer.alloc(64 * 64 * 3, 0x5a), { raw: { width: 64, height: 64, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const error = await rejection(png.subarray(0, png.length - 2000));
    expect(error).toBeInstanceOf(ImageInvalidError);
  });

  it("a PNG header claiming 20000 x 20000 pixels", async () => {
    const error = await rejection(pngClaiming(20_000, 20_000));
    expect(error).toBeInstanceOf(ImageTooLargeError);
    expect(error.code).toBe("image_invalid");
    expect(error.message).toMatch(/20000x20000.*megapixel/);
  });

  it("bytes over the size limit", async () => {
    const png = await solid(100, 100, "#123456").png().toBuffer();
    const error = await rejection(png, { maxBytes: 100, maxPixels: 50_000_000, timeoutSeconds: 10 });
    expect(error).toBeInstanceOf(ImageTooLargeError);
    expect(error.message).toMatch(/over the 100-byte limit/);
  });

  it("an HTML page named .png", async () => {
    const error = await rejection(Buffer.from("<!doctype html><html><body>Not found</body></html>"));
    expect(error).toBeInstanceOf(ImageInvalidError);
    expect(error.message).toMatch(/HTML/);
  });

  it("an SVG, even one that would render", async () => {
    const svg =
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="file:///etc/passwd"/></svg>';
    const error = await rejection(Buffer.from(svg));
    expect(error).toBeInstanceOf(ImageInvalidError);
    expect(error.message).toMatch(/SVG images are not accepted/);
  });

  it("a PDF", async () => {
    const error = await rejection(Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"));
    expect(error.message).toMatch(/PDF/);
  });

  it("a 0-byte file", async () => {
    const error = await rejection(new Uint8Array(0));
    expect(error.message).toMatch(/empty/);
  });

  it("random bytes behind a JPEG signature", async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 0x41)]);
    const error = await rejection(bytes);
    expect(error).toBeInstanceOf(ImageInvalidError);
  });
});
