import type { Canvas, CanvasKit, Image } from "canvaskit-wasm";
import type { Layer } from "../document/schema.ts";
import { axisAligned, type DeviceRect, inDeviceSpace, rasterMatrix } from "./device-space.ts";
import { imagePatternsOf } from "./image-pattern.ts";
import type { RenderKind } from "./painters/painter.ts";
import { inkBounds } from "./pixel-shadows.ts";
import { RasterSurface } from "./surface.ts";
import { compositeOver, copyAround, overlap, reachOf, touchedPart, type Underlay } from "./underlay.ts";

/** Bytes of layer rasters an engine keeps (a shadowed 640x550 panel at scale 1 is about 2 MB). */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Whether a layer is drawn through a raster of its own (LayerRasters): a layer of a self-contained
 * kind with drop shadows and nothing that varies between renders: no binding, no mask (another
 * layer's outline), a normal blend, not turned. Its pixels depend only on its JSON and the device
 * transform, so they are drawn once into a raster and copied onto later renders (a shadowed panel
 * cost 2.6 ms to draw and 1.1 ms to copy). Always through the raster, the first time too, so a
 * render's bytes never depend on what an engine drew before.
 */
export function drawsThroughRaster(layer: Layer, kind: RenderKind): boolean {
  return (
    kind.selfContained === true &&
    (layer.shadows ?? []).length > 0 &&
    Object.keys(layer.bind ?? {}).length === 0 &&
    layer.mask === undefined &&
    (layer.blend_mode ?? "normal") === "normal" &&
    (layer.rotation ?? 0) === 0 &&
    layer.flip_x !== true &&
    layer.flip_y !== true &&
    // An image pattern's pixels come from the host each render: they may differ for the same JSON.
    imagePatternsOf(layer).length === 0
  );
}

interface RasterEntry {
  /** The raster's inked part (null: nothing drawn), at `left`, `top` in the raster. */
  image: Image | null;
  /** The inked part over an underlay's background (render/underlay.ts); null image: not opaque. */
  composite: { key: string; image: Image | null; bytes: number } | null;
  left: number;
  top: number;
  bytes: number;
  usedIn: number;
}

/**
 * Rasters of layers that draw the same every time, by their JSON and the device transform, least
 * recently used dropped beyond the byte budget.
 */
export class LayerRasters {
  readonly #maxBytes: number;
  readonly #entries = new Map<string, RasterEntry>();
  readonly #ck: CanvasKit;
  readonly #scratch: RasterSurface;
  #bytes = 0;
  /** Counts renders: an entry remembers the last one that drew it. */
  #render = 0;

  constructor(ck: CanvasKit, maxBytes = DEFAULT_MAX_BYTES) {
    this.#maxBytes = maxBytes;
    this.#ck = ck;
    this.#scratch = new RasterSurface(ck);
  }

  /**
   * Draws `layer` onto `canvas` from its raster, drawing the raster with `draw` (the layer's usual
   * drawing, given a canvas with the same transform) when it is not kept. False when the canvas is
   * turned or skewed: the caller then draws the layer directly.
   */
  paint(
    canvas: Canvas,
    layer: Layer,
    kind: RenderKind,
    draw: (canvas: Canvas) => void,
    underlay: Underlay | null = null,
  ): boolean {
    const t = axisAligned(canvas);
    if (t === null) return false;
    const rect = reachOf(layer, kind, t);
    const matrix = rasterMatrix(t, rect);
    // Where the layer falls inside its raster's pixels: the same fraction of a pixel, the same raster.
    const key = `${JSON.stringify(layer)}|${matrix.join(",")}`;
    return inDeviceSpace(canvas, t, () => {
      if (rect.width <= 0 || rect.height <= 0) return;
      let entry = this.#entries.get(key);
      if (entry) {
        this.#entries.delete(key);
        this.#entries.set(key, entry);
        entry.usedIn = this.#render;
      } else {
        entry = {
          ...this.#draw(rect.width, rect.height, matrix, draw),
          composite: null,
          usedIn: this.#render,
        };
        this.#keep(key, entry);
      }
      const kept = this.#entries.has(key);
      if (entry.image !== null) {
        const placed = {
          left: rect.left + entry.left,
          top: rect.top + entry.top,
          width: entry.image.width(),
          height: entry.image.height(),
        };
        if (kept && underlay?.dirty)
          this.#drawOver(canvas, entry, entry.image, placed, { ...underlay, dirty: underlay.dirty });
        else canvas.drawImage(entry.image, placed.left, placed.top, null);
      }
      if (!kept) entry.image?.delete();
    });
  }

  /**
   * Draws the raster and keeps its inked part: the margin left for shadows is partly empty (a
   * shadow's far tail rounds to nothing, an offset shadow reaches one side only), and every pixel
   * copied onto the canvas is a blend (~2 ns each).
   */
  #draw(
    width: number,
    height: number,
    matrix: number[],
    draw: (canvas: Canvas) => void,
  ): Pick<RasterEntry, "image" | "left" | "top" | "bytes"> {
    const surface = this.#scratch.drawCleared(width, height, matrix, draw);
    const ink = inkBounds(this.#scratch.pixels(), width, height);
    const image = ink === null ? null : surface.makeImageSnapshot([ink.x0, ink.y0, ink.x1, ink.y1]);
    // The scratch surface is kept only while small: a scale-4 panel would hold 30 MB for nothing.
    if (width * height * 4 > this.#maxBytes / 4) this.#scratch.release();
    if (ink === null) return { image, left: 0, top: 0, bytes: 0 };
    return { image, left: ink.x0, top: ink.y0, bytes: (ink.x1 - ink.x0) * (ink.y1 - ink.y0) * 4 };
  }

  /**
   * Draws a kept raster where the underlay's dirty rectangles may have changed the canvas (one
   * rectangle holding them all) as usual, and elsewhere copies the raster as it lies over the
   * background, kept with the entry. The same bytes: a blend of the same pixels over the same ones.
   * Only the part on the frame is drawn (the rest would be cut off).
   */
  #drawOver(
    canvas: Canvas,
    entry: RasterEntry,
    image: Image,
    placed: DeviceRect,
    underlay: Underlay & { dirty: readonly DeviceRect[] },
  ): void {
    const visible = overlap(placed, underlay.frame);
    if (visible === null) return;
    const composite = this.#compositeOf(entry, image, placed, visible, underlay);
    if (composite === null) {
      canvas.drawImage(image, placed.left, placed.top, null);
      return;
    }
    const touched = touchedPart(visible, underlay.dirty);
    copyAround(this.#ck, canvas, composite, visible, touched);
    if (touched === null) return;
    canvas.save();
    canvas.clipRect(
      this.#ck.XYWHRect(
        visible.left + touched.left,
        visible.top + touched.top,
        touched.width,
        touched.height,
      ),
      this.#ck.ClipOp.Intersect,
      false,
    );
    canvas.drawImage(image, placed.left, placed.top, null);
    canvas.restore();
  }

  /** The entry's raster over the underlay's background on `visible` (compositeOver), made once. */
  #compositeOf(
    entry: RasterEntry,
    image: Image,
    placed: DeviceRect,
    visible: DeviceRect,
    underlay: Underlay,
  ): Image | null {
    const key = `${underlay.key}|${visible.left},${visible.top},${visible.width},${visible.height}`;
    if (entry.composite?.key === key) return entry.composite.image;
    if (entry.composite !== null) {
      entry.composite.image?.delete();
      this.#bytes -= entry.composite.bytes;
      entry.bytes -= entry.composite.bytes;
      entry.composite = null;
    }
    // As large rasters are not kept, nor are large composites: copied or blended, one is drawn once.
    const made =
      visible.width * visible.height * 4 > this.#maxBytes / 4
        ? null
        : compositeOver(this.#scratch, underlay, visible, (c) =>
            c.drawImage(image, placed.left - visible.left, placed.top - visible.top, null),
          );
    const bytes = made === null ? 0 : visible.width * visible.height * 4;
    entry.composite = { key, image: made, bytes };
    entry.bytes += bytes;
    this.#bytes += bytes;
    return made;
  }

  /** A new render begins: rasters it draws are kept in preference to ones it does not. */
  beginRender(): void {
    this.#render++;
  }

  /**
   * Keeps a new raster, dropping the least recently used beyond the budget, but never one this
   * render drew: a frame with more rasters than fit would otherwise drop each just before it is
   * needed again (a cycle defeats least-recently-used), and every render would draw them all.
   */
  #keep(key: string, entry: RasterEntry): void {
    if (entry.bytes > this.#maxBytes / 2) return;
    let room = this.#maxBytes - this.#bytes;
    const victims: string[] = [];
    for (const [oldKey, old] of this.#entries) {
      if (room >= entry.bytes) break;
      if (old.usedIn === this.#render) return;
      victims.push(oldKey);
      room += old.bytes;
    }
    if (room < entry.bytes) return;
    for (const oldKey of victims) {
      const old = this.#entries.get(oldKey);
      if (!old) continue;
      this.#entries.delete(oldKey);
      this.#bytes -= old.bytes;
      old.image?.delete();
      old.composite?.image?.delete();
    }
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes;
  }

  dispose(): void {
    for (const { image, composite } of this.#entries.values()) {
      image?.delete();
      composite?.image?.delete();
    }
    this.#entries.clear();
    this.#bytes = 0;
    this.#scratch.release();
  }
}
