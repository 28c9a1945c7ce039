import type { Canvas, CanvasKit, Image } from "canvaskit-wasm";
import type { DropShadowT } from "../document/common.ts";
import { parseHexColor } from "./color.ts";
import {
  type AxisAligned,
  type DeviceRect,
  deviceRect,
  inDeviceSpace,
  rasterMatrix,
} from "./device-space.ts";
import { sigmaOf } from "./shadows.ts";
import { pixelImage, RasterSurface } from "./surface.ts";

/** A scratch raster larger than this is freed once used rather than kept for the next layer. */
export const LARGE_SCRATCH_BYTES = 4 * 1024 * 1024;

/**
 * Drop shadows of a layer whose kind cannot give its outline (text, icons, codes): the layer is drawn
 * into a raster of its own, each shadow is that raster's alpha blurred and tinted here, in JS, and
 * shadows and layer are copied onto the canvas pixel for pixel. Why: the drop-shadow image filter
 * costs the engine's WebAssembly Skia about 30 ns a pixel of the layer's box (7 ms for a shadowed
 * 270x56 text; five of them were two thirds of a 60-layer frame), and an alpha image drawn in a colour
 * is no faster there, while a triple box blur over one byte a pixel in JS and copying premultiplied
 * pixels take well under 1 ms. Integer arithmetic: Node and the browser compute the same bytes.
 */
export class PixelShadows {
  readonly #ck: CanvasKit;
  readonly #scratch: RasterSurface;

  constructor(ck: CanvasKit) {
    this.#ck = ck;
    this.#scratch = new RasterSurface(ck);
  }

  /**
   * Draws the layer (`draw`, on a canvas with the same transform) over its `shadows`, the first
   * lowest. `box` is what the layer may draw on, in the canvas's coordinates. False when the canvas is
   * not axis-aligned: the caller then uses the filter.
   */
  paint(
    canvas: Canvas,
    t: AxisAligned,
    box: { x0: number; y0: number; x1: number; y1: number },
    shadows: readonly DropShadowT[],
    path: string,
    draw: (canvas: Canvas) => void,
  ): boolean {
    const rect = deviceRect(t, box.x0, box.y0, box.x1, box.y1);
    return inDeviceSpace(canvas, t, () => {
      if (rect.width <= 0 || rect.height <= 0) return;
      const pixels = this.#drawLayer(rect, rasterMatrix(t, rect), draw);
      const images: Image[] = [];
      try {
        for (const [index, shadow] of shadows.entries()) {
          const color = parseHexColor(shadow.color, `${path}[${index}].color`);
          const cast = castShadow(pixels, rect, t, shadow, color);
          if (cast === null) continue;
          const image = pixelImage(this.#ck, cast.pixels, cast.rect.width, cast.rect.height);
          images.push(image);
          canvas.drawImage(image, cast.rect.left, cast.rect.top, null);
        }
        const layer = pixelImage(this.#ck, pixels, rect.width, rect.height);
        images.push(layer);
        canvas.drawImage(layer, rect.left, rect.top, null);
      } finally {
        for (const image of images) image.delete();
      }
    });
  }

  #drawLayer(rect: DeviceRect, matrix: number[], draw: (canvas: Canvas) => void): Uint8Array {
    this.#scratch.drawCleared(rect.width, rect.height, matrix, draw);
    const pixels = this.#scratch.pixels().slice();
    // Kept only while small: a scale-4 headline would hold megabytes for nothing.
    if (pixels.byteLength > LARGE_SCRATCH_BYTES) this.#scratch.release();
    return pixels;
  }

  dispose(): void {
    this.#scratch.release();
  }
}

/**
 * One shadow of a layer's premultiplied pixels: their alpha, blurred (a Gaussian of the shadow's
 * sigma in device pixels, as three box blurs), tinted premultiplied with the shadow's colour, moved by
 * its offset (rounded to whole device pixels).
 */
export function castShadow(
  layer: Uint8Array,
  rect: DeviceRect,
  t: AxisAligned,
  shadow: DropShadowT,
  color: Float32Array | number[],
): { pixels: Uint8Array; rect: DeviceRect } | null {
  const ink = inkBounds(layer, rect.width, rect.height);
  if (ink === null) return null;
  const radii = boxRadii(sigmaOf(shadow.blur) * Math.sqrt(t.sx * t.sy));
  const pad = radii[0] + radii[1] + radii[2];
  const inkWidth = ink.x1 - ink.x0;
  const width = inkWidth + 2 * pad;
  const height = ink.y1 - ink.y0 + 2 * pad;
  const alpha = new Uint8Array(width * height);
  for (let y = ink.y0; y < ink.y1; y++) {
    const from = (y * rect.width + ink.x0) * 4 + 3;
    const to = (y - ink.y0 + pad) * width + pad;
    for (let x = 0; x < inkWidth; x++) alpha[to + x] = layer[from + x * 4] as number;
  }
  if (pad > 0) {
    const spare = new Uint8Array(alpha.length);
    for (const r of radii) {
      if (r === 0) continue;
      boxBlurRows(alpha, spare, width, height, r);
      boxBlurColumns(spare, alpha, width, height, r);
    }
  }
  const [r = 0, g = 0, b = 0, a = 1] = color;
  const ca = Math.round(a * 255);
  const cr = Math.round(r * 255);
  const cg = Math.round(g * 255);
  const cb = Math.round(b * 255);
  const out = new Uint8Array(width * height * 4);
  for (let i = 0; i < alpha.length; i++) {
    const k = (alpha[i] as number) * ca; // 0..65025
    if (k === 0) continue;
    const o = i * 4;
    out[o] = ((cr * k + 32512) / 65025) | 0;
    out[o + 1] = ((cg * k + 32512) / 65025) | 0;
    out[o + 2] = ((cb * k + 32512) / 65025) | 0;
    out[o + 3] = ((k + 127) / 255) | 0;
  }
  return {
    pixels: out,
    rect: {
      left: rect.left + ink.x0 - pad + Math.round(shadow.x * t.sx),
      top: rect.top + ink.y0 - pad + Math.round(shadow.y * t.sy),
      width,
      height,
    },
  };
}

/** The smallest box holding every pixel with some alpha (end exclusive), or null for none. */
export function inkBounds(
  pixels: Uint8Array,
  width: number,
  height: number,
): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width * 4 + 3;
    for (let x = 0; x < width; x++) {
      if (pixels[row + x * 4] === 0) continue;
      if (x < x0) x0 = x;
      if (x >= x1) x1 = x + 1;
      y1 = y + 1;
      if (y < y0) y0 = y;
    }
  }
  return x1 === 0 ? null : { x0, y0, x1, y1 };
}

/**
 * Radii of three box blurs whose succession approximates a Gaussian of `sigma` (W. M. Wells, "Efficient
 * synthesis of Gaussian filters by cascaded uniform filters", 1986): widths around sqrt(12 sigma² / 3 + 1).
 */
export function boxRadii(sigma: number): [number, number, number] {
  if (sigma < 0.5) return [0, 0, 0];
  const ideal = Math.sqrt(4 * sigma * sigma + 1);
  let lower = Math.floor(ideal);
  if (lower % 2 === 0) lower--;
  const upper = lower + 2;
  const lowerCount = Math.round((12 * sigma * sigma - 3 * lower * lower - 12 * lower - 9) / (-4 * lower - 4));
  const radius = (i: number) => ((i < lowerCount ? lower : upper) - 1) / 2;
  return [radius(0), radius(1), radius(2)];
}

/** Each row of `src` averaged over 2r+1 pixels (zero beyond the edges) into `dst`, rounded. */
function boxBlurRows(src: Uint8Array, dst: Uint8Array, width: number, height: number, r: number): void {
  const size = 2 * r + 1;
  const half = size >> 1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let x = 0; x < r && x < width; x++) sum += src[row + x] as number;
    for (let x = 0; x < width; x++) {
      if (x + r < width) sum += src[row + x + r] as number;
      dst[row + x] = ((sum + half) / size) | 0;
      if (x - r >= 0) sum -= src[row + x - r] as number;
    }
  }
}

/**
 * Each column of `src` averaged over 2r+1 pixels (zero beyond the edges) into `dst`, rounded; row by
 * row with a running sum per column, so memory is read in order.
 */
function boxBlurColumns(src: Uint8Array, dst: Uint8Array, width: number, height: number, r: number): void {
  const size = 2 * r + 1;
  const half = size >> 1;
  const sums = new Uint32Array(width);
  for (let y = 0; y < r && y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) sums[x] = (sums[x] as number) + (src[row + x] as number);
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const enter = y + r < height ? (y + r) * width : -1;
    const leave = y - r >= 0 ? (y - r) * width : -1;
    for (let x = 0; x < width; x++) {
      let sum = sums[x] as number;
      if (enter >= 0) sum += src[enter + x] as number;
      dst[row + x] = ((sum + half) / size) | 0;
      if (leave >= 0) sum -= src[leave + x] as number;
      sums[x] = sum;
    }
  }
}
