import type { FrameT } from "../engine/engine-types.ts";

/**
 * Keystroke-to-pixels latency of inline text editing, for the benchmark: the inline editor notes
 * the input event's time with the frame object its edit produced; when that frame's pixels reach
 * the canvas, every keystroke up to it is shown, and their latencies are recorded (a keystroke
 * whose own render was superseded by the next one counts until the next one's pixels).
 */
const pending: { frame: FrameT; at: number }[] = [];
const samples: number[] = [];

export function typedInto(frame: FrameT, eventTime: number): void {
  pending.push({ frame, at: eventTime });
  if (pending.length > 1000) pending.shift();
}

export function pixelsShown(frame: FrameT): void {
  const i = pending.findIndex((p) => p.frame === frame);
  if (i < 0) return;
  const now = performance.now();
  for (const p of pending.splice(0, i + 1)) samples.push(now - p.at);
}

/** The latencies recorded since the last call (ms), emptied. */
export function takeTypingLatencies(): number[] {
  pending.length = 0;
  return samples.splice(0);
}
