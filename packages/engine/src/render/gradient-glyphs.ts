import type { Canvas, CanvasKit, Paint } from "canvaskit-wasm";
import type { GradientT as Gradient } from "../document/common.ts";
import { LastUsed } from "../shared/last-used.ts";
import {
  type AxisAligned,
  axisAligned,
  type DeviceRect,
  deviceRect,
  inDeviceSpace,
  rasterMatrix,
} from "./device-space.ts";
import { rampPixels } from "./gradient-bands.ts";
import { linearEnds, type PaintBox, radialGeometry } from "./paint.ts";
import { RasterSurface } from "./surface.ts";
import type { GlyphPaint } from "./text-layout.ts";

/**
 * Glyphs filled with a gradient: drawn opaque black into a raster of their own, each pixel's coverage
 * recoloured here, in JS, with the gradient's colour there (one step a device pixel along it, as the
 * bands of gradient-bands.ts), and the result copied onto the canvas. Why: the engine's WebAssembly
 * Skia shades glyph pixels with a gradient shader at about 30 ns a pixel (2 ms of a 1200x630 card's
 * 50 px headline), and blends other than source-over cost as much, while solid glyphs, a JS pass
 * over the raster and a pixel copy take a fraction of that. Float arithmetic in the order written:
 * Node and the browser compute the same bytes.
 */
export class GradientGlyphs {
  readonly #scratch: RasterSurface;
  readonly #black: Paint;
  /**
   * How glyphs are laid out and drawn for recolouring: runs without their own `<color>` in opaque
   * black, the rest (other colours, emoji, decorations) left out, to be drawn over as they are.
   */
  readonly coverage: GlyphPaint;

  constructor(ck: CanvasKit) {
    this.#scratch = new RasterSurface(ck);
    this.#black = new ck.Paint();
    // Black, as a shader paint's colour is: Skia tunes glyph coverage to the paint's luminance.
    this.#black.setColor(Float32Array.of(0, 0, 0, 1));
    this.coverage = { plain: this.#black, colored: "none", emojiAndDecorations: false };
  }

  /**
   * Draws the glyphs `draw` paints (laid out with `coverage`, on a canvas with this one's transform) within
   * `bounds` in `gradient` spanning `box`. False when the canvas is not axis-aligned, and nothing is
   * drawn: the caller then uses a shader.
   */
  paint(
    canvas: Canvas,
    bounds: { x0: number; y0: number; x1: number; y1: number },
    gradient: Gradient,
    path: string,
    box: PaintBox,
    draw: (canvas: Canvas) => void,
  ): boolean {
    const t = axisAligned(canvas);
    if (t === null) return false;
    const rect = deviceRect(t, bounds.x0, bounds.y0, bounds.x1, bounds.y1);
    return inDeviceSpace(canvas, t, () => {
      if (rect.width <= 0 || rect.height <= 0) return;
      this.#scratch.drawCleared(rect.width, rect.height, rasterMatrix(t, rect), draw);
      const pixels = this.#scratch.pixels();
      const rows = recolor(pixels, rect, t, gradient, path, box);
      if (rows === null) return;
      const image = this.#scratch.image(false, { top: rows.y0, height: rows.y1 - rows.y0 });
      canvas.drawImage(image, rect.left, rect.top + rows.y0, null);
      image.delete();
      // Kept only while small: a scale-4 headline would hold megabytes for nothing.
      if (rect.width * rect.height * 4 > 4 * 1024 * 1024) this.#scratch.release();
    });
  }

  dispose(): void {
    this.#scratch.release();
    this.#black.delete();
  }
}

/** The last few ramps (a template's gradient text draws with the same one each render). */
const ramps = new LastUsed<Uint8Array>(8);

/**
 * Turns glyph coverage (the alpha of black glyphs) into the gradient's premultiplied colour times that coverage, in place;
 * returns the rows holding any (null: none).
 */
function recolor(
  pixels: Uint8Array,
  rect: DeviceRect,
  t: AxisAligned,
  gradient: Gradient,
  path: string,
  box: PaintBox,
): { y0: number; y1: number } | null {
  const density = Math.sqrt(t.sx * t.sy);
  // Where a device pixel's centre (u, v in the canvas's coordinates) falls along the gradient, 0..1:
  // (u - ox) * kx + (v - oy) * ky for a linear one, the distance from (ox, oy) over `radius` for a radial one.
  const linear = gradient.type === "linear";
  let ox: number;
  let oy: number;
  let kx = 0;
  let ky = 0;
  let radius = 1;
  let stretch = 1;
  let steps: number;
  if (gradient.type === "linear") {
    const [start, end] = linearEnds(gradient.angle ?? 180, box);
    const dx = end[0] - start[0];
    const dy = end[1] - start[1];
    const lengthSquared = dx * dx + dy * dy || 1;
    [ox, oy] = start;
    kx = dx / lengthSquared;
    ky = dy / lengthSquared;
    steps = Math.max(1, Math.ceil(Math.sqrt(lengthSquared) * density));
  } else {
    const { cx, cy, rx, ry } = radialGeometry(gradient, box);
    ox = cx;
    oy = cy;
    radius = rx;
    // An ellipse: distances down count rx / ry times (1 for a circle: the same arithmetic as before).
    stretch = rx / ry;
    steps = Math.max(1, Math.ceil(Math.max(rx, ry) * density));
  }
  const ramp = ramps.get(`${steps}|${JSON.stringify(gradient)}`, () => rampPixels(gradient, path, steps));
  const last = steps - 1;
  const width = rect.width;
  // The pixel centres' u in the canvas's coordinates (from the gradient's origin), by column.
  const us = new Float64Array(width);
  for (let x = 0; x < width; x++) us[x] = (rect.left + x + 0.5 - t.tx) / t.sx - ox;
  // A linear gradient's position times `steps`, by column: a row adds its own part.
  const columnSteps = new Float64Array(width);
  for (let x = 0; x < width; x++) columnSteps[x] = (us[x] as number) * kx * steps;
  // Whole pixels at a time (little-endian RGBA): most of the raster is empty and skipped a word at once.
  const words = new Uint32Array(pixels.buffer, pixels.byteOffset, pixels.length >> 2);
  let y0 = -1;
  let y1 = 0;
  for (let y = 0; y < rect.height; y++) {
    const row = y * width;
    const v = (rect.top + y + 0.5 - t.ty) / t.sy - oy;
    const rowSteps = v * ky * steps;
    const vr = stretch === 1 ? v : v * stretch;
    let inked = false;
    for (let x = 0; x < width; x++) {
      const word = words[row + x] as number;
      if (word === 0) continue;
      inked = true;
      const u = us[x] as number;
      const at = linear
        ? (columnSteps[x] as number) + rowSteps
        : (Math.sqrt(u * u + vr * vr) / radius) * steps;
      const step = at <= 0 ? 0 : at >= last ? last : Math.floor(at);
      const s = step * 4;
      const coverage = word >>> 24;
      // c * coverage / 255, rounded: exact for every 8-bit pair.
      const r = (((ramp[s] as number) * coverage + 128) * 257) >>> 16;
      const g = (((ramp[s + 1] as number) * coverage + 128) * 257) >>> 16;
      const b = (((ramp[s + 2] as number) * coverage + 128) * 257) >>> 16;
      const a = (((ramp[s + 3] as number) * coverage + 128) * 257) >>> 16;
      words[row + x] = (r | (g << 8) | (b << 16) | (a << 24)) >>> 0;
    }
    if (inked) {
      if (y0 < 0) y0 = y;
      y1 = y + 1;
    }
  }
  return y0 < 0 ? null : { y0, y1 };
}
