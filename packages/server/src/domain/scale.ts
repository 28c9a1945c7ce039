/** Any number 1 <= scale <= 4, default 1. */
export function isValidScale(scale: unknown): scale is number {
  return typeof scale === "number" && Number.isFinite(scale) && scale >= 1 && scale <= 4;
}

/** A render costs ceil(scale^2) credits: 1, 4, 9, 16 at the integers. */
export function creditCost(scale: number): number {
  return Math.ceil(scale * scale);
}

export function outputSize(frame: { width: number; height: number }, scale: number) {
  return { width: Math.round(frame.width * scale), height: Math.round(frame.height * scale) };
}

/**
 * The largest output drawn, in pixels (16,000 x 16,000: 1 GB of pixels while drawing). A frame of up
 * to 8,000 px a side fits at scale 2; past this the engine cannot allocate the surface, so the render
 * is refused before any charge instead of failing on a worker.
 */
export const MAX_OUTPUT_PIXELS = 256_000_000;

/**
 * An animated render (GIF, MP4, animated WebP) costs ceil(scale^2 x duration in seconds): a second of
 * motion costs what a still costs, a 2.5 s clip at scale 1 costs 3.
 */
export function animationCreditCost(scale: number, durationSeconds: number): number {
  // Rounded to micro-units first, so 0.1 s x 10 frames of float noise never costs a credit more.
  return Math.ceil(Math.round(scale * scale * durationSeconds * 1e6) / 1e6);
}
