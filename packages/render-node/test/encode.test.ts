import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { encodeImage } from "../src/encode.ts";
import { packRgb } from "../src/frame-copies.ts";
import { expectClose } from "./fixtures.ts";

/** A frame where every pixel is the given premultiplied RGBA. */
function frame(width: number, height: number, rgba: number[], opaque: boolean) {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) pixels.set(rgba, i * 4);
  return { width, height, pixels, opaque };
}

describe("encodeImage", () => {
  for (const format of ["png", "jpeg", "webp"] as const) {
    it(`${format}: decodes back to the frame's size and colour`, async () => {
      const out = await encodeImage(frame(37, 21, [200, 100, 50, 255], true), { format });
      expect(out.contentType).toBe(`image/${format}`);
      const meta = await sharp(out.bytes).metadata();
      expect(meta.format).toBe(format);
      expect([meta.width, meta.height]).toEqual([37, 21]);
      // Opaque frames drop alpha: smaller files, and JPEG has none anyway.
      expect(meta.hasAlpha).toBe(false);
      const { data } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
      expectClose([...data.subarray(0, 3)], [200, 100, 50], format === "png" ? 0 : 6);
    });
  }

  it("keeps straight colours of a translucent frame in PNG (the engine's pixels are premultiplied)", async () => {
    // 50% alpha: premultiplied (64, 32, 0) is straight (127.5, 63.75, 0).
    const out = await encodeImage(frame(4, 4, [64, 32, 0, 128], false), { format: "png" });
    const { data, info } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expectClose([...data.subarray(0, 4)], [127, 63, 0, 128], 1);
  });

  it("keeps alpha in WebP and flattens JPEG on white", async () => {
    const translucent = frame(8, 8, [64, 32, 0, 128], false);
    const webp = await encodeImage(translucent, { format: "webp", quality: 100 });
    const w = await sharp(webp.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(w.info.channels).toBe(4);
    expectClose([...w.data.subarray(0, 4)], [127, 63, 0, 128], 3);
    const jpeg = await encodeImage(translucent, { format: "jpeg", quality: 100 });
    const j = await sharp(jpeg.bytes).raw().toBuffer({ resolveWithObject: true });
    // Over white, premultiplied + (1 - alpha) x 255: 64 + 127.5, 32 + 127.5, 0 + 127.5.
    expectClose([...j.data.subarray(0, 3)], [191, 159, 128], 3);
  });

  it("drops an opaque frame's alpha itself, to the bytes sharp's removeAlpha gives, wherever the pixels lie", async () => {
    // 7x5: a pixel count that is not a multiple of four (the packing's tail); then the same pixels at
    // an odd offset in a larger buffer (no 32-bit view possible) and packed by the caller.
    const noisy = new Uint8Array(7 * 5 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 7919) % 251));
    const shifted = new Uint8Array(noisy.length + 1);
    shifted.set(noisy, 1);
    const frames = [
      { width: 7, height: 5, pixels: noisy, opaque: true },
      { width: 7, height: 5, pixels: shifted.subarray(1), opaque: true },
      {
        width: 7,
        height: 5,
        pixels: packRgb(noisy, new Uint8Array(7 * 5 * 3)),
        opaque: true,
        channels: 3 as const,
      },
    ];
    const raw = { width: 7, height: 5, channels: 4 as const };
    const bySharp = {
      png: await sharp(noisy, { raw })
        .removeAlpha()
        .png({ compressionLevel: 1, adaptiveFiltering: false })
        .toBuffer(),
      jpeg: await sharp(noisy, { raw })
        .removeAlpha()
        .jpeg({ quality: 90, optimiseCoding: false, mozjpeg: false })
        .toBuffer(),
      webp: await sharp(noisy, { raw })
        .removeAlpha()
        .webp({ quality: 90, effort: 0, alphaQuality: 100 })
        .toBuffer(),
    };
    for (const [i, input] of frames.entries()) {
      for (const format of ["png", "jpeg", "webp"] as const) {
        const out = await encodeImage(input, { format });
        expect(out.bytes.equals(bySharp[format]), `frame ${i}, ${format}`).toBe(true);
      }
    }
  });

  it("uses quality: lower quality gives a smaller JPEG", async () => {
    const noisy = new Uint8Array(64 * 64 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 7919) % 251));
    const input = { width: 64, height: 64, pixels: noisy, opaque: true };
    const high = await encodeImage(input, { format: "jpeg", quality: 95 });
    const low = await encodeImage(input, { format: "jpeg", quality: 30 });
    expect(low.bytes.length).toBeLessThan(high.bytes.length);
  });

  it("rejects an out-of-range quality and a pixel buffer of the wrong size", async () => {
    await expect(
      encodeImage(frame(2, 2, [0, 0, 0, 255], true), { format: "jpeg", quality: 0 }),
    ).rejects.toThrow(RangeError);
    await expect(
      encodeImage({ width: 3, height: 3, pixels: new Uint8Array(8), opaque: true }, { format: "png" }),
    ).rejects.toThrow(/expected 36 bytes/);
  });

  describe("pngOptimize: size", () => {
    /** Decoded as sRGB RGBA whatever the colour type (palette, grey, RGB): the pixels a viewer shows. */
    const decoded = (png: Buffer) => sharp(png).toColourspace("srgb").ensureAlpha().raw().toBuffer();
    /** Encodes with both efforts; the `size` PNG must decode to exactly the `speed` one's pixels. */
    async function bothEfforts(input: Parameters<typeof encodeImage>[0]) {
      const speed = await encodeImage(input, { format: "png" });
      const size = await encodeImage(input, { format: "png", pngOptimize: "size" });
      expect(size.contentType).toBe("image/png");
      expect([size.width, size.height]).toEqual([input.width, input.height]);
      expect(Buffer.compare(await decoded(size.bytes), await decoded(speed.bytes))).toBe(0);
      expect(size.bytes.byteLength).toBeLessThan(speed.bytes.byteLength);
      return { speed, size };
    }
    /** An opaque photo-like frame: smooth gradients with a little seeded noise. */
    function photoLike(width: number, height: number) {
      const pixels = new Uint8Array(width * height * 4);
      let seed = 7;
      for (let i = 0; i < width * height; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        const x = i % width;
        const y = Math.floor(i / width);
        const grain = (seed >>> 28) - 8;
        pixels.set([(x * 255) / width + grain, (y * 255) / height + grain, 128 + grain, 255], i * 4);
      }
      return { width, height, pixels, opaque: true };
    }

    it("stores an opaque photo-like frame in fewer bytes with the same pixels", async () => {
      await bothEfforts(photoLike(320, 200));
    });

    it("stores a translucent frame of few colours as a palette PNG with the same pixels", async () => {
      const input = frame(120, 80, [64, 32, 0, 128], false);
      // A second colour in a band, so the palette has two entries and transparency.
      for (let i = 0; i < 120 * 20; i++) input.pixels.set([0, 0, 200, 255], i * 4);
      const { size } = await bothEfforts(input);
      expect((await sharp(size.bytes).metadata()).isPalette).toBe(true);
    });

    it("encodes a frame above oxipng's size bound with zlib effort, same pixels", async () => {
      await bothEfforts(photoLike(1600, 1300));
    });
  });
});
