/**
 * What an input image may be. Apart from prepare-image.ts (which loads sharp) so the cost estimate
 * (cost.ts), which runs on the server's API thread, can read them without loading sharp.
 */
export interface ImageLimits {
  /** Largest accepted input, in bytes: 25 MiB. */
  maxBytes: number;
  /** Largest accepted input, in pixels: 50 megapixels. */
  maxPixels: number;
  /** libvips gives up after this long; a hostile image cannot hold a worker. */
  timeoutSeconds: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxBytes: 25 * 1024 * 1024,
  maxPixels: 50_000_000,
  timeoutSeconds: 10,
};
