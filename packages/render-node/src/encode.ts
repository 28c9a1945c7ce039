import sharp from "sharp";

export type OutputFormat = "png" | "jpeg" | "webp";

export interface EncodeOptions {
  format: OutputFormat;
  /** JPEG and WebP quality, 1 to 100; default 90. Ignored for PNG. */
  quality?: number;
  /**
   * zlib level for PNG. 1 (default) is the measured sweet spot: level 6 was about twice as slow for
   * files around 10% smaller (architecture.md).
   */
  pngCompressionLevel?: number;
}

/** Pixels as the engine hands them over (RenderResult). */
export interface PixelFrame {
  width: number;
  height: number;
  /** RGBA8888, premultiplied alpha. */
  pixels: Uint8Array;
  /** Every pixel opaque: premultiplied equals straight, and alpha can be dropped. */
  opaque: boolean;
}

export interface EncodedImage {
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
}

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
};

export const DEFAULT_QUALITY = 90;

/**
 * Encodes engine pixels with sharp. sharp reads `frame.pixels` in place (no copy), so the caller
 * must keep that memory untouched until the returned promise settles.
 */
export async function encodeImage(frame: PixelFrame, options: EncodeOptions): Promise<EncodedImage> {
  const { width, height, pixels, opaque } = frame;
  if (pixels.byteLength !== width * height * 4) {
    throw new RangeError(`expected ${width * height * 4} bytes for ${width}x${height} RGBA`);
  }
  const quality = options.quality ?? DEFAULT_QUALITY;
  if (!Number.isInteger(quality) || quality < 1 || quality > 100) {
    throw new RangeError(`quality must be an integer from 1 to 100, not ${quality}`);
  }
  const input = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  // Opaque pixels are already straight RGBA; translucent ones are declared premultiplied so sharp
  // divides by alpha once on output instead of writing darkened colours.
  let image = sharp(input, { raw: { width, height, channels: 4, premultiplied: !opaque } });
  if (opaque) image = image.removeAlpha();
  switch (options.format) {
    case "png":
      image = image.png({
        compressionLevel: options.pngCompressionLevel ?? 1,
        adaptiveFiltering: false,
      });
      break;
    case "jpeg":
      // JPEG has no alpha: translucent areas are shown over white, as a browser shows them on a page.
      if (!opaque) image = image.flatten({ background: "#ffffff" });
      image = image.jpeg({ quality, optimiseCoding: false, mozjpeg: false });
      break;
    case "webp":
      // effort 0..6: the lowest effort encodes several times faster for a few % larger files.
      image = image.webp({ quality, effort: 0, alphaQuality: 100 });
      break;
  }
  const bytes = await image.toBuffer();
  return { bytes, contentType: CONTENT_TYPES[options.format], width, height };
}
