import type { PixelFrame } from "@pictor/render-node";
import sharp from "sharp";

type Format = "png" | "jpeg" | "webp";

/**
 * The encode floor of `bench:engine`: sharp encoding the engine's RGBA buffer with the speed settings
 * (PNG zlib level 1 without filters; JPEG and WebP quality 90, WebP effort 0), alpha dropped by sharp
 * (removeAlpha) for an opaque frame. Fixed here, whatever encoder path Pictor takes (encode.ts packs an
 * opaque frame as RGB itself), so the ratios stay against the same floor.
 */
export function sharpFloor(frame: PixelFrame, format: Format): Promise<Buffer> {
  const { width, height, pixels, opaque } = frame;
  const input = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  let image = sharp(input, { raw: { width, height, channels: 4, premultiplied: !opaque } });
  if (opaque) image = image.removeAlpha();
  if (format === "png") return image.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  if (format === "jpeg") {
    if (!opaque) image = image.flatten({ background: "#ffffff" });
    return image.jpeg({ quality: 90, optimiseCoding: false, mozjpeg: false }).toBuffer();
  }
  return image.webp({ quality: 90, effort: 0, alphaQuality: 100 }).toBuffer();
}
