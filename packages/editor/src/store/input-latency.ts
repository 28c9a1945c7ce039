import type { FrameT } from "../engine/engine-types.ts";

/**
 * Input-to-pixels latency, for the benchmark: inline typing (each input event) and canvas drags (each
 * pointer move). The input notes its event's time with the frame object its edit produced; when
 * that frame's pixels reach the canvas, every input of that kind up to it is shown, and their
 * latencies are recorded (an input whose own render was superseded by the next one counts until the
 * next one's pixels).
 */
export type InputKind = "typing" | "drag";

const pending: Record<InputKind, { frame: FrameT; at: number }[]> = { typing: [], drag: [] };
const samples: Record<InputKind, number[]> = { typing: [], drag: [] };

export function inputApplied(kind: InputKind, frame: FrameT, eventTime: number): void {
  const queue = pending[kind];
  queue.push({ frame, at: eventTime });
  if (queue.length > 1000) queue.shift();
}

export function pixelsShown(frame: FrameT): void {
  const now = performance.now();
  for (const kind of ["typing", "drag"] as const) {
    const queue = pending[kind];
    const i = queue.findIndex((p) => p.frame === frame);
    if (i < 0) continue;
    for (const p of queue.splice(0, i + 1)) samples[kind].push(now - p.at);
  }
}

/**
 * The latencies of one kind of input recorded since the last call (ms), emptied. Inputs whose pixels
 * are still to come stay pending: polled during a drag, none is lost.
 */
export function takeLatencies(kind: InputKind): number[] {
  return samples[kind].splice(0);
}
