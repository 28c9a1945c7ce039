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
 * shows them), written into `into` (one buffer reused for every frame: a fresh 4.7 MB copy per
 * frame of a 1080x1080 video left the process at 1 GB resident before the collector caught up).
 */
export function opaqueOverWhite(premultiplied: Uint8Array, opaque: boolean, into: Uint8Array): Uint8Array {
  into.set(premultiplied);
  if (opaque) return into;
  for (let i = 0; i < into.length; i += 4) {
    const under = 255 - (into[i + 3] as number);
    into[i] = (into[i] as number) + under;
    into[i + 1] = (into[i + 1] as number) + under;
    into[i + 2] = (into[i + 2] as number) + under;
    into[i + 3] = 255;
  }
  return into;
}
