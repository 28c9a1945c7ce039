import type { FrameT } from "../engine/engine-types.ts";

/** The stage's zoom: its bounds, its steps (the bar's − and +) and the zoom that fits every frame. */

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 4;

/** Where the bar's −/+ buttons and the −/+ keys go, in order. */
export const ZOOM_STEPS = [0.05, 0.1, 0.15, 0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.5, 2, 3, 4];

/** Fit (every frame), the selection, or 100 %. */
export type ZoomTarget = "fit" | "selection" | "actual";

export function clampZoom(z: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(z * 1000) / 1000));
}

/** The next zoom step above (1) or below (-1) `zoom`; the same zoom past the last step. */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  return direction > 0
    ? (ZOOM_STEPS.find((v) => v > zoom) ?? zoom)
    : (ZOOM_STEPS.filter((v) => v < zoom).at(-1) ?? zoom);
}

export interface Viewport {
  width: number;
  height: number;
}

/**
 * Largest zoom at which every frame fits side by side in the stage of a window this size (the
 * panel widths and bar heights of styles.css taken off).
 */
export function fitZoom(frames: readonly FrameT[], viewport: Viewport): number {
  const gaps = 56 * (frames.length - 1) + 96;
  const width = viewport.width - 248 - 320 - gaps;
  const height = viewport.height - 48 - 96 - 24;
  const total = frames.reduce((n, f) => n + f.width, 0);
  const tallest = Math.max(...frames.map((f) => f.height), 1);
  const fit = Math.min(width / Math.max(total, 1), height / tallest, 1);
  return Math.max(MIN_ZOOM, Math.floor(fit * 100) / 100);
}
