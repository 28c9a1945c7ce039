import type { ImageFit, PreparedImage } from "@pictor/engine";
import sharp, { type Metadata, type SharpOptions } from "sharp";
import { ImageInvalidError, type ImageOrigin, ImageTooLargeError } from "./errors.ts";
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from "./image-limits.ts";
import { sniffImage } from "./sniff.ts";

export { DEFAULT_IMAGE_LIMITS, type ImageLimits } from "./image-limits.ts";

export interface PrepareTarget {
  width: number;
  height: number;
  fit: ImageFit;
  /**
   * 0..1 on each axis: the source point kept in view when `cover` crops; with `contain`, where the
   * fitted image sits (0 left/top, 0.5 centred, 1 right/bottom).
   */
  focal: { x: number; y: number };
}

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The part of a `sourceWidth` x `sourceHeight` image that `cover` keeps for a `boxWidth` x
 * `boxHeight` box: the box's aspect ratio, as large as the source allows, centred on the focal
 * point and slid back inside the image where the focal point is near an edge.
 */
export function coverRegion(
  sourceWidth: number,
  sourceHeight: number,
  boxWidth: number,
  boxHeight: number,
  focal: { x: number; y: number },
): Region {
  const scale = Math.max(boxWidth / sourceWidth, boxHeight / sourceHeight);
  const width = Math.min(sourceWidth, Math.max(1, Math.round(boxWidth / scale)));
  const height = Math.min(sourceHeight, Math.max(1, Math.round(boxHeight / scale)));
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  const left = Math.round(clamp(focal.x * sourceWidth - width / 2, sourceWidth - width));
  const top = Math.round(clamp(focal.y * sourceHeight - height / 2, sourceHeight - height));
  return { left, top, width, height };
}

/** sharp's `position` for a contain anchor: each axis's nearest of start, centre and end. */
export function containPosition(anchor: { x: number; y: number }): string {
  const x = anchor.x < 0.25 ? "left" : anchor.x > 0.75 ? "right" : "";
  const y = anchor.y < 0.25 ? "top" : anchor.y > 0.75 ? "bottom" : "";
  return `${x} ${y}`.trim() || "centre";
}

/** EXIF orientations 5 to 8 turn the image a quarter: width and height swap once applied. */
function orientedSize(meta: Metadata): { width: number; height: number } {
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  return (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
}

const ACCEPTED_DECODERS = new Set(["jpeg", "png", "gif", "webp", "heif", "tiff"]);

/**
 * Decodes untrusted image bytes and fits them to exactly `target.width` x `target.height` device
 * pixels as straight sRGB RGBA, the form the engine draws 1:1. Every failure is an
 * ImageInvalidError (or ImageTooLargeError); nothing a caller sends can crash the process.
 */
export async function prepareImage(
  bytes: Uint8Array,
  target: PrepareTarget,
  origin?: ImageOrigin,
  limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
): Promise<PreparedImage> {
  if (bytes.byteLength > limits.maxBytes) {
    throw new ImageTooLargeError(
      `${bytes.byteLength} bytes is over the ${limits.maxBytes}-byte limit`,
      origin,
    );
  }
  const sniffed = sniffImage(bytes);
  if (sniffed.kind === "refused") throw new ImageInvalidError(sniffed.reason, origin);

  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const options: SharpOptions = {
    // 'error' rejects corrupt and truncated data yet tolerates libjpeg warnings (stray bytes after
    // the end marker, odd markers) that many phone cameras produce.
    failOn: "error",
    limitInputPixels: limits.maxPixels,
    // First frame only: a 1,000-frame GIF costs what one frame costs.
    pages: 1,
    page: 0,
  };

  let meta: Metadata;
  try {
    // Header only, nothing decoded: read without the pixel limit so an oversized image gets the
    // clearer ImageTooLargeError below rather than libvips' generic refusal.
    meta = await sharp(input, { ...options, limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ImageInvalidError(`cannot read the image header (${reason(error)})`, origin, {
      cause: error,
    });
  }
  if (!ACCEPTED_DECODERS.has(meta.format)) {
    throw new ImageInvalidError(`unsupported image format ${meta.format}`, origin);
  }
  const source = orientedSize(meta);
  if (source.width < 1 || source.height < 1) {
    throw new ImageInvalidError("the image has no pixels", origin);
  }
  if (source.width * source.height > limits.maxPixels) {
    throw new ImageTooLargeError(
      `${source.width}x${source.height} is over the ${limits.maxPixels / 1_000_000}-megapixel limit`,
      origin,
    );
  }

  const { width, height } = target;
  let upscaled: boolean;
  // How many times the source's pixels are stretched at most (either axis): reported by preflight.
  let enlargement: number;
  let pipeline = sharp(input, { ...options, autoOrient: true }).timeout({
    seconds: limits.timeoutSeconds,
  });
  if (target.fit === "cover") {
    const region = coverRegion(source.width, source.height, width, height, target.focal);
    upscaled = region.width < width || region.height < height;
    enlargement = Math.max(width / region.width, height / region.height);
    pipeline = pipeline.extract(region).resize(width, height, { fit: "fill" });
  } else if (target.fit === "contain") {
    const scale = Math.min(width / source.width, height / source.height);
    upscaled = scale > 1;
    enlargement = scale;
    pipeline = pipeline.resize(width, height, {
      fit: "contain",
      position: containPosition(target.focal),
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    });
  } else {
    upscaled = source.width < width || source.height < height;
    enlargement = Math.max(width / source.width, height / source.height);
    pipeline = pipeline.resize(width, height, { fit: "fill" });
  }

  try {
    const { data, info } = await pipeline
      .toColourspace("srgb")
      .ensureAlpha()
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    if (info.width !== width || info.height !== height || info.channels !== 4) {
      throw new Error(`decoder produced ${info.width}x${info.height}x${info.channels}`);
    }
    return {
      width,
      height,
      rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      upscaled,
      enlargement: Math.round(enlargement * 100) / 100,
    };
  } catch (error) {
    throw new ImageInvalidError(`cannot decode the image (${reason(error)})`, origin, {
      cause: error,
    });
  }
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]?.trim() || "unknown decoder error";
}
