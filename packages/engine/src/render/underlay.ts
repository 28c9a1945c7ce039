import type { Canvas, CanvasKit, Image } from "canvaskit-wasm";
import type { Layer } from "../document/schema.ts";
import type { Bindings } from "./bindings.ts";
import { type AxisAligned, type DeviceRect, deviceRect } from "./device-space.ts";
import { isDrawn } from "./drawn-layers.ts";
import { shadowReach } from "./effects.ts";
import type { RenderKind } from "./painters/painter.ts";
import { kindOf } from "./painters/registry.ts";
import { isOpaque } from "./premultiply.ts";
import type { RasterSurface } from "./surface.ts";

/**
 * What lies under a frame's top-level layers before any is drawn (its background), and where the
 * layers drawn so far may have changed it. A kept layer raster (render/layer-rasters.ts) blends each
 * of its pixels onto the canvas (~2 ns a pixel in the engine's WebAssembly Skia: 1.1 ms for a
 * shadowed 640x550 panel); where nothing was drawn under it yet, the result is the background with
 * the raster over it, the same every render: kept opaque, it is copied at a tenth of the cost.
 */
export interface Underlay {
  /** Names the background (its paint, the frame's size and scale). */
  key: string;
  /** The frame's device pixels. */
  frame: DeviceRect;
  /** Puts the background's pixels of `rect` (device px, on the frame) into `surface`, acquired at its size. */
  fill(surface: RasterSurface, rect: DeviceRect): void;
  /** Device rectangles the layers drawn so far may have drawn on; null: unknown (anywhere). */
  dirty: readonly DeviceRect[] | null;
}

/**
 * Where a top-level layer may draw, in device pixels: its box widened by its kind's overhang and its
 * shadows' reach (what bounds its offscreen layer too), plus a pixel for rounding; nothing when it is
 * hidden; null when unknown (a container, a turned layer, a box that follows its content).
 */
export function drawnArea(layer: Layer, bindings: Bindings, t: AxisAligned): DeviceRect | "none" | null {
  if (!isDrawn(layer, bindings)) return "none";
  const kind = kindOf(layer);
  // A layer whose box follows its content (layout) is not where its design box says.
  if (kind.children || (layer.rotation ?? 0) !== 0 || layer.layout !== undefined) return null;
  return layerArea(layer, kind, t);
}

/** The device pixels an unturned layer may draw on: its box, overhang and shadow reach, and a pixel. */
export function layerArea(layer: Layer, kind: RenderKind, t: AxisAligned): DeviceRect {
  const rect = reachOf(layer, kind, t);
  return { left: rect.left - 1, top: rect.top - 1, width: rect.width + 2, height: rect.height + 2 };
}

/** The device pixels covering an unturned layer's box widened by its kind's overhang and its shadows' reach. */
export function reachOf(layer: Layer, kind: RenderKind, t: AxisAligned): DeviceRect {
  const margin = (kind.overhang?.(layer) ?? 1) + shadowReach(layer);
  return deviceRect(
    t,
    layer.x - margin,
    layer.y - margin,
    layer.x + layer.width + margin,
    layer.y + layer.height + margin,
  );
}

/** The underlay before each layer of a frame: `at(i)` for layer i. */
export interface Underlays {
  at(index: number): Underlay;
}

/** The underlays of `layers`, drawn in order over `base`, under the transform `t`. */
export function underlaysOf(
  base: Omit<Underlay, "dirty">,
  layers: readonly Layer[],
  bindings: Bindings,
  t: AxisAligned,
): Underlays {
  const areas: (DeviceRect | "none" | null)[] = [];
  return {
    at(index) {
      for (let i = areas.length; i < index; i++) areas.push(drawnArea(layers[i] as Layer, bindings, t));
      const dirty: DeviceRect[] = [];
      for (let i = 0; i < index; i++) {
        const area = areas[i];
        if (area === null || area === undefined) return { ...base, dirty: null };
        if (area !== "none") dirty.push(area);
      }
      return { ...base, dirty };
    },
  };
}

/** Where two rectangles overlap, or null. */
export function overlap(a: DeviceRect, b: DeviceRect): DeviceRect | null {
  const left = Math.max(a.left, b.left);
  const top = Math.max(a.top, b.top);
  const right = Math.min(a.left + a.width, b.left + b.width);
  const bottom = Math.min(a.top + a.height, b.top + b.height);
  return right > left && bottom > top ? { left, top, width: right - left, height: bottom - top } : null;
}

/**
 * The underlay of a frame's background: a solid colour the surface is cleared to, or the kept pixels
 * of a gradient (the whole frame's, row after row).
 */
export function backgroundUnderlay(
  key: string,
  frame: DeviceRect,
  background: { color: Float32Array } | { pixels: Uint8Array },
): Omit<Underlay, "dirty"> {
  return {
    key,
    frame,
    fill(surface, rect) {
      const drawn = surface.acquire(rect.width, rect.height);
      if ("color" in background) {
        drawn.getCanvas().clear(background.color);
        return;
      }
      const target = surface.pixels();
      const rowBytes = rect.width * 4;
      for (let y = 0; y < rect.height; y++) {
        const from = ((rect.top + y) * frame.width + rect.left) * 4;
        target.set(background.pixels.subarray(from, from + rowBytes), y * rowBytes);
      }
    },
  };
}

/**
 * The smallest rectangle (relative to `placed`) holding every part of `placed` a dirty rectangle
 * touches, or null when none does.
 */
export function touchedPart(placed: DeviceRect, dirty: readonly DeviceRect[]): DeviceRect | null {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const d of dirty) {
    const part = overlap(d, placed);
    if (part === null) continue;
    x0 = Math.min(x0, part.left);
    y0 = Math.min(y0, part.top);
    x1 = Math.max(x1, part.left + part.width);
    y1 = Math.max(y1, part.top + part.height);
  }
  if (x1 <= x0) return null;
  return { left: x0 - placed.left, top: y0 - placed.top, width: x1 - x0, height: y1 - y0 };
}

/**
 * The underlay's background on `visible` with `draw` over it (on a canvas whose (0, 0) is the corner of
 * `visible`), drawn in `scratch`, as an image declared opaque; null when it is not opaque (copied over
 * the canvas, its background would blend twice).
 */
export function compositeOver(
  scratch: RasterSurface,
  underlay: Underlay,
  visible: DeviceRect,
  draw: (canvas: Canvas) => void,
): Image | null {
  const surface = scratch.acquire(visible.width, visible.height);
  underlay.fill(scratch, visible);
  const canvas = surface.getCanvas();
  canvas.save();
  try {
    draw(canvas);
  } finally {
    canvas.restore();
  }
  surface.flush();
  if (!isOpaque(scratch.pixels())) return null;
  // Declared opaque: Skia then copies it instead of blending every pixel.
  return scratch.image(true);
}

/**
 * Copies `composite` (the pixels of `visible`) onto a canvas in device pixels, except `touched`
 * (relative to `visible`; null: nothing excepted), which the caller draws. Each part is the whole
 * image drawn under a clip: Skia copies an image with a source rectangle ~20x slower.
 */
export function copyAround(
  ck: CanvasKit,
  canvas: Canvas,
  composite: Image,
  visible: DeviceRect,
  touched: DeviceRect | null,
): void {
  if (touched === null) {
    canvas.drawImage(composite, visible.left, visible.top, null);
    return;
  }
  const copy = (x: number, y: number, width: number, height: number) => {
    if (width <= 0 || height <= 0) return;
    canvas.save();
    canvas.clipRect(
      ck.XYWHRect(visible.left + x, visible.top + y, width, height),
      ck.ClipOp.Intersect,
      false,
    );
    canvas.drawImage(composite, visible.left, visible.top, null);
    canvas.restore();
  };
  const { left, top, width, height } = touched;
  copy(0, 0, visible.width, top);
  copy(0, top + height, visible.width, visible.height - top - height);
  copy(0, top, left, height);
  copy(left + width, top, visible.width - left - width, height);
}
