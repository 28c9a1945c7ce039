import type { Canvas } from "canvaskit-wasm";

/** A canvas transform that only scales (by positive factors) and moves: no turn, skew or flip. */
export interface AxisAligned {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
}

/** Whole device pixels covering a rectangle: its raster's place and size. */
export interface DeviceRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The canvas's transform when it is axis-aligned, else null. */
export function axisAligned(canvas: Canvas): AxisAligned | null {
  const [sx = 1, kx = 0, tx = 0, ky = 0, sy = 1, ty = 0, p0 = 0, p1 = 0, p2 = 1] = canvas.getTotalMatrix();
  if (kx !== 0 || ky !== 0 || p0 !== 0 || p1 !== 0 || p2 !== 1 || sx <= 0 || sy <= 0) return null;
  return { sx, sy, tx, ty };
}

/** The device pixels a rectangle in the canvas's coordinates falls on, rounded outwards. */
export function deviceRect(t: AxisAligned, x0: number, y0: number, x1: number, y1: number): DeviceRect {
  const left = Math.floor(t.sx * x0 + t.tx);
  const top = Math.floor(t.sy * y0 + t.ty);
  return {
    left,
    top,
    width: Math.ceil(t.sx * x1 + t.tx) - left,
    height: Math.ceil(t.sy * y1 + t.ty) - top,
  };
}

/** The matrix that draws into a raster of `rect` what the canvas would draw at `t`. */
export function rasterMatrix(t: AxisAligned, rect: DeviceRect): number[] {
  return [t.sx, 0, t.tx - rect.left, 0, t.sy, t.ty - rect.top, 0, 0, 1];
}

const isIdentity = (m: readonly number[]) => m.every((v, i) => v === (i % 4 === 0 ? 1 : 0));

/**
 * Runs `draw` with the canvas in device pixels (rasters are copied pixel for pixel there). CanvasKit
 * has no resetMatrix: the transform is undone by its inverse, and where float arithmetic leaves that
 * short of the identity (a scale of 1/3's inverse) nothing is drawn and false returned, so the caller
 * draws another way, the same way every time.
 */
export function inDeviceSpace(canvas: Canvas, t: AxisAligned, draw: () => void): boolean {
  canvas.save();
  try {
    canvas.concat([1 / t.sx, 0, -t.tx / t.sx, 0, 1 / t.sy, -t.ty / t.sy, 0, 0, 1]);
    if (!isIdentity(canvas.getTotalMatrix())) return false;
    draw();
    return true;
  } finally {
    canvas.restore();
  }
}
