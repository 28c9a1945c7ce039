import { ANIMATED_IMAGE_PIXEL_BUDGET } from "@pictor/render-node/cost";
import type { RenderAnimation } from "../ports/render-store.ts";
import { frameCount, type TemplateDocumentT } from "./document.ts";
import { type Failure, fail, type Result } from "./failure.ts";
import { outputSize } from "./scale.ts";

/** The longest animation the API renders, in seconds (a document may describe up to 60). */
export const MAX_ANIMATION_SECONDS = 30;
/** The largest frame of an animation, in output pixels (1920x1080 at any scale). */
export const MAX_ANIMATION_FRAME_PIXELS = 1920 * 1080;

/** Whether a request asks for motion: every GIF and MP4, and a WebP with `animated: true`. */
export function isAnimatedRequest(format: string | undefined, animated: boolean | undefined): boolean {
  return format === "gif" || format === "mp4" || (format === "webp" && animated === true);
}

/** `animated` belongs to WebP alone (GIF and MP4 always move; PNG, JPEG and PDF never do). */
export function malformedAnimatedField(
  format: string | undefined,
  animated: boolean | undefined,
): Failure | null {
  if (animated !== true || format === "webp" || format === "gif" || format === "mp4") return null;
  const message =
    "animated asks for an animated WebP and needs format 'webp' (gif and mp4 are always animated).";
  return fail("invalid_request", message, { errors: [{ path: "animated", message }] });
}

/**
 * The moments an animated render draws, checked before it is charged: the frame must move (have a
 * duration), last at most MAX_ANIMATION_SECONDS, be at most MAX_ANIMATION_FRAME_PIXELS at the scale
 * asked; a GIF or WebP, assembled from its whole stack of frames, at most ANIMATED_IMAGE_PIXEL_BUDGET
 * pixels over all its frames (frames x width x height).
 */
export function animationOf(
  frame: TemplateDocumentT["frames"][number],
  scale: number,
  format: string,
): Result<RenderAnimation> {
  const refuse = (code: "invalid_request" | "render_too_large", path: string, message: string) =>
    fail(code, message, { errors: [{ path, message }] });
  if (frame.duration === undefined) {
    return refuse(
      "invalid_request",
      "format",
      `Frame '${frame.name}' does not move (it has no duration), so it cannot be drawn as an animated ${format}. Give the frame a duration and animations, or ask for a still format.`,
    );
  }
  const frames = frameCount(frame);
  const fps = frame.fps ?? 30;
  if (frames === null) {
    return refuse(
      "invalid_request",
      "frame",
      `Frame '${frame.name}': duration x fps must be a whole number of frames.`,
    );
  }
  if (frame.duration > MAX_ANIMATION_SECONDS) {
    return refuse(
      "invalid_request",
      "frame",
      `Frame '${frame.name}' lasts ${frame.duration} s; animated renders are at most ${MAX_ANIMATION_SECONDS} s.`,
    );
  }
  const size = outputSize(frame, scale);
  if (size.width * size.height > MAX_ANIMATION_FRAME_PIXELS) {
    return refuse(
      "invalid_request",
      "scale",
      `At scale ${scale} frame '${frame.name}' would be ${size.width}x${size.height} pixels; animated renders are at most ${MAX_ANIMATION_FRAME_PIXELS.toLocaleString("en-US")} pixels a frame (1920x1080). Use a smaller scale.`,
    );
  }
  const stack = frames * size.width * size.height;
  if (format !== "mp4" && stack > ANIMATED_IMAGE_PIXEL_BUDGET) {
    return refuse(
      "render_too_large",
      "format",
      `A ${format} is assembled from all its frames at once: ${frames} frames of ${size.width}x${size.height} are ${stack.toLocaleString("en-US")} pixels, over the ${ANIMATED_IMAGE_PIXEL_BUDGET.toLocaleString("en-US")} a ${format} may hold. Use mp4, a smaller scale, a shorter duration or a lower fps. Nothing was charged.`,
    );
  }
  return { ok: true, value: { frames, fps, duration: frames / fps } };
}
