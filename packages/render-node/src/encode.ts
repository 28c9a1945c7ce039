import { losslessCompressPng } from "@napi-rs/image";
import sharp, { type Sharp } from "sharp";
import { FrameCopies } from "./frame-copies.ts";

export type OutputFormat = "png" | "jpeg" | "webp";

/**
 * PNG encoder effort. `speed`: zlib level 1, no filters (about 5 ms for a 1200x630 card). `size`:
 * the same pixels in fewer bytes, for renders nobody waits for (see encodePngForSize).
 */
export type PngOptimize = "speed" | "size";

export interface EncodeOptions {
  format: OutputFormat;
  /** JPEG and WebP quality, 1 to 100; default 90. Ignored for PNG. */
  quality?: number;
  /**
   * zlib level for PNG, default 1. Measured on the 1200x630 og-card example: level 1 took 6.4 ms
   * for 613 KB, level 6 took 18.8 ms for 423 KB. Use 6 when bytes matter more than latency.
   */
  pngCompressionLevel?: number;
  /** Default `speed`. `size` ignores `pngCompressionLevel`. Other formats ignore it. */
  pngOptimize?: PngOptimize;
}

/** Pixels as the engine hands them over (RenderResult), or an opaque frame packed as RGB. */
export interface PixelFrame {
  width: number;
  height: number;
  /** RGBA8888, premultiplied alpha; RGB888 when `channels` is 3. */
  pixels: Uint8Array;
  /** Every pixel opaque: premultiplied equals straight, and alpha can be dropped. */
  opaque: boolean;
  /** 3: `pixels` holds an opaque frame's colours without alpha (frame-copies.ts packRgb). Default 4. */
  channels?: 3 | 4;
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
  const quality = options.quality ?? DEFAULT_QUALITY;
  if (!Number.isInteger(quality) || quality < 1 || quality > 100) {
    throw new RangeError(`quality must be an integer from 1 to 100, not ${quality}`);
  }
  const { width, height } = frame;
  const channels = frame.channels ?? 4;
  if (frame.pixels.byteLength !== width * height * channels) {
    throw new RangeError(
      `expected ${width * height * channels} bytes for ${width}x${height} at ${channels} channels`,
    );
  }
  // Opaque pixels lose their alpha before the encoder sees them (packed here unless the caller did);
  // translucent ones are declared premultiplied so sharp divides by alpha once on output instead of
  // writing darkened colours.
  const packed = channels === 3 || !frame.opaque ? null : packedCopies.take(frame);
  try {
    return await encodeWithSharp(packed ?? frame, options, quality);
  } finally {
    if (packed !== null) packedCopies.give(packed);
  }
}

/** Buffers for opaque frames a caller hands over as RGBA, packed as RGB before encoding. */
const packedCopies = new FrameCopies();

async function encodeWithSharp(
  frame: PixelFrame,
  options: EncodeOptions,
  quality: number,
): Promise<EncodedImage> {
  const { width, height, pixels } = frame;
  const opaque = frame.channels === 3;
  const input = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  let image = opaque
    ? sharp(input, { raw: { width, height, channels: 3 } })
    : sharp(input, { raw: { width, height, channels: 4, premultiplied: true } });
  switch (options.format) {
    case "png":
      if (options.pngOptimize === "size") {
        const bytes = await encodePngForSize(image, width * height);
        return { bytes, contentType: CONTENT_TYPES.png, width, height };
      }
      // Adaptive filtering tripled the time (18.9 ms) for 1.5% smaller files on the same frame.
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
      // Effort 0 of 0..6: 17.7 ms for 73 KB against 51.5 ms for 59 KB at the default effort 4.
      image = image.webp({ quality, effort: 0, alphaQuality: 100 });
      break;
  }
  const bytes = await image.toBuffer();
  return { bytes, contentType: CONTENT_TYPES[options.format], width, height };
}

/**
 * Frames up to this many pixels go through oxipng; larger ones through libspng at a higher effort.
 * oxipng (libdeflate, filter trials, lossless palette, bit-depth and grey reductions) took the
 * reference card at scale 1 (0.76 MP) from 346 KB to 186-192 KB for 0.3-0.7 s of CPU, but 4-6 s at
 * scale 4 (12 MP), where zlib level 6 with adaptive filters gets under Takumi's bytes in under 1 s.
 */
const OXIPNG_MAX_PIXELS = 2_000_000;

/**
 * The smallest PNG worth its CPU for a render nobody waits for. Lossless: the decoded pixels equal
 * those of the `speed` encoding (a test decodes both and compares them byte for byte).
 */
async function encodePngForSize(image: Sharp, pixels: number): Promise<Buffer> {
  if (pixels > OXIPNG_MAX_PIXELS) {
    return image.png({ compressionLevel: 6, adaptiveFiltering: true }).toBuffer();
  }
  // oxipng reads a PNG: the fast encoding is its input, then rewritten with the smallest of the
  // filters tried (None and Sub won on the reference card) and any lossless reduction that applies.
  const fast = await image.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  const optimised = await losslessCompressPng(fast, { filter: [0, 1] });
  return optimised.byteLength < fast.byteLength ? optimised : fast;
}
