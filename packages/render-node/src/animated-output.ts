/** The animated outputs: GIF and WebP assembled by sharp, MP4 encoded by ffmpeg. */
export type AnimatedFormat = "gif" | "webp" | "mp4";

export const ANIMATED_CONTENT_TYPES: Record<AnimatedFormat, string> = {
  gif: "image/gif",
  webp: "image/webp",
  mp4: "video/mp4",
};

/**
 * GIF and animated WebP are assembled from the whole stack of frames in memory: at most this many
 * pixels (frames x width x height; 4 bytes each, 160 MB) per render, which keeps one such render
 * inside a render thread's memory. MP4 streams its frames and has no such bound.
 */
export const ANIMATED_IMAGE_PIXEL_BUDGET = 40_000_000;

/**
 * A frame as an MP4 takes it: straight, opaque RGBA, translucent parts shown over white (as JPEG
 * shows them). A copy: the engine's pixels are reused by its next render.
 */
export function opaqueOverWhite(premultiplied: Uint8Array, opaque: boolean): Uint8Array {
  const out = Uint8Array.from(premultiplied);
  if (opaque) return out;
  for (let i = 0; i < out.length; i += 4) {
    const under = 255 - (out[i + 3] as number);
    out[i] = (out[i] as number) + under;
    out[i + 1] = (out[i + 1] as number) + under;
    out[i + 2] = (out[i + 2] as number) + under;
    out[i + 3] = 255;
  }
  return out;
}
