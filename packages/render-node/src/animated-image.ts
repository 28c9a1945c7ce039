import sharp from "sharp";

export type AnimatedImageFormat = "gif" | "webp";

export interface AnimatedImageOptions {
  format: AnimatedImageFormat;
  fps: number;
  /** Times the animation plays; 0 (the default) loops forever. */
  loop?: number;
  /** WebP: absent, lossless; 1 to 100, lossy at that quality. GIF ignores it. */
  quality?: number;
}

/**
 * Each frame's delay in milliseconds, rounded so the delays add up to the whole duration (GIF counts
 * in hundredths of a second: 30 fps is 30, 40, 30, ... ms rather than 33 ms that drifts).
 */
export function frameDelays(frames: number, fps: number, unitMs: number): number[] {
  const at = (i: number) => Math.round((i * 1000) / fps / unitMs) * unitMs;
  return Array.from({ length: frames }, (_, i) => at(i + 1) - at(i));
}

/**
 * Assembles frames (stacked top to bottom in one RGBA buffer, each `height` rows) into an animated
 * GIF (a palette per frame, Floyd-Steinberg dithering) or WebP with sharp.
 */
export async function encodeAnimatedImage(
  stack: Uint8Array,
  frame: { width: number; height: number; frames: number; premultiplied: boolean },
  options: AnimatedImageOptions,
): Promise<Buffer> {
  const input = Buffer.from(stack.buffer, stack.byteOffset, stack.byteLength);
  const image = sharp(input, {
    raw: {
      width: frame.width,
      height: frame.height * frame.frames,
      channels: 4,
      premultiplied: frame.premultiplied,
      pageHeight: frame.height,
    },
    limitInputPixels: false,
  });
  const loop = options.loop ?? 0;
  if (options.format === "gif") {
    const delay = frameDelays(frame.frames, options.fps, 10);
    return image.gif({ loop, delay, dither: 1, effort: 4, keepDuplicateFrames: true }).toBuffer();
  }
  const delay = frameDelays(frame.frames, options.fps, 1);
  const lossless = options.quality === undefined;
  return image
    .webp({
      loop,
      delay,
      effort: 0,
      ...(lossless ? { lossless: true } : { quality: options.quality, alphaQuality: 100 }),
    })
    .toBuffer();
}
