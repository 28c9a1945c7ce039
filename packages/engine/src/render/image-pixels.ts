import type { Canvas, CanvasKit, Image, InputRRect, Path } from "canvaskit-wasm";
import type { PreparedImage } from "../api.ts";
import type { ColorMatrix } from "./image-filters.ts";
import { isOpaque, premultiplyInto } from "./premultiply.ts";
import { pixelImage, RasterSurface } from "./surface.ts";

/** The coverage of an image: outlines and a rounded rectangle in layer coordinates, and the matrix to its pixels. */
export interface ImageClip {
  matrix: number[];
  outlines: readonly Path[];
  rrect: InputRRect | null;
  key: string;
}

/**
 * Drawing folded into a composed image over its pixels (a border): `draw` in layer coordinates,
 * `matrix` taking them to the image's pixels, `key` naming what it draws.
 */
export interface ImageOverlay {
  key: string;
  matrix: number[];
  draw(canvas: Canvas): void;
}

/**
 * A composed image and, when it is partly transparent (a masked photo), the rectangles inside it whose
 * pixels are all opaque, with the same pixels declared opaque: drawn from that, Skia copies them
 * instead of blending (0.3 against 2.4 ns a pixel in the engine's WebAssembly Skia).
 */
export interface ComposedImage {
  image: Image;
  interior: readonly { left: number; top: number; width: number; height: number }[];
  opaqueImage: Image | null;
}

/**
 * Horizontal bands of rows whose longest runs of opaque pixels start and end within 16 px of the
 * band's first row's, each the rectangle common to those runs. Bands under 4,096 px are left out (a
 * draw call costs more than they save); the 32 largest are kept.
 */
function opaqueBands(pixels: Uint8Array, width: number, height: number) {
  const runs: { a: number; b: number }[] = [];
  for (let y = 0; y < height; y++) {
    let best = { a: 0, b: 0 };
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const opaque = x < width && pixels[(y * width + x) * 4 + 3] === 255;
      if (opaque && start < 0) start = x;
      if (!opaque && start >= 0) {
        if (x - start > best.b - best.a) best = { a: start, b: x };
        start = -1;
      }
    }
    runs.push(best);
  }
  const bands: { left: number; top: number; width: number; height: number }[] = [];
  for (let top = 0; top < height; ) {
    const first = runs[top] as { a: number; b: number };
    if (first.b - first.a < 64) {
      top++;
      continue;
    }
    let { a, b } = first;
    let bottom = top + 1;
    while (bottom < height) {
      const next = runs[bottom] as { a: number; b: number };
      if (Math.abs(next.a - first.a) > 16 || Math.abs(next.b - first.b) > 16) break;
      a = Math.max(a, next.a);
      b = Math.min(b, next.b);
      bottom++;
    }
    if ((b - a) * (bottom - top) >= 4096) bands.push({ left: a, top, width: b - a, height: bottom - top });
    top = bottom;
  }
  return bands.sort((p, q) => q.width * q.height - p.width * p.height).slice(0, 32);
}

/**
 * Image layers drawn 1:1 at whole device pixels with their colour filters and their coverage (corner
 * radius, mask) already in the pixels. Why: in the engine's WebAssembly Skia a colour filter or a clip
 * under an image costs about 30-40 ns a pixel (a 440x440 photo masked to a circle with two filters:
 * 12 ms a render), while a 1:1 image without either is a sprite blit (0.1 ms). The composed pixels are
 * computed once in JS (the same arithmetic in Node and the browser) and kept per prepared image,
 * filters and mask, so a template that shows the same photo again draws it at blit cost.
 */
export class ComposedImages {
  private readonly ck: CanvasKit;
  private readonly coverage: RasterSurface;
  private readonly cache = new Map<string, ComposedImage & { bytes: number }>();
  private readonly ids = new WeakMap<Uint8Array, number>();
  private nextId = 1;
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(ck: CanvasKit, maxBytes = 32 * 1024 * 1024) {
    this.ck = ck;
    this.coverage = new RasterSurface(ck);
    this.maxBytes = maxBytes;
  }

  /**
   * The image to draw at device pixel (0, 0) of `prepared`'s box. `clip` is the coverage in device
   * pixels relative to the image's top-left corner (a matrix and the outlines to fill), or null;
   * `clipKey` names it for the cache.
   */
  composed(
    prepared: PreparedImage,
    matrices: readonly ColorMatrix[],
    clip: ImageClip | null,
    overlay: ImageOverlay | null = null,
  ): ComposedImage {
    const key = `${this.idOf(prepared.rgba)}|${prepared.width}x${prepared.height}|${JSON.stringify(matrices)}|${clip?.key ?? ""}|${overlay === null ? "" : `${overlay.key}@${overlay.matrix.join(",")}`}`;
    const hit = this.cache.get(key);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const pixels = Uint8Array.from(prepared.rgba);
    if (matrices.length > 0) applyColorMatrices(pixels, matrices);
    if (clip !== null) this.applyCoverage(pixels, prepared.width, prepared.height, clip);
    // Opaque pixels are declared so: Skia then copies them instead of blending each one.
    let opaque = isOpaque(pixels);
    if (!opaque) premultiplyInto(pixels, pixels);
    if (overlay !== null) {
      this.drawOver(pixels, prepared.width, prepared.height, overlay);
      opaque = isOpaque(pixels);
    }
    const { ck } = this;
    const { width, height } = prepared;
    const image = pixelImage(ck, pixels, width, height, opaque, ck.ColorSpace.SRGB);
    const interior = opaque ? [] : opaqueBands(pixels, width, height);
    const opaqueImage =
      interior.length === 0 ? null : pixelImage(ck, pixels, width, height, true, ck.ColorSpace.SRGB);
    const entry = {
      image,
      interior: opaqueImage === null ? [] : interior,
      opaqueImage,
      bytes: pixels.length * (opaqueImage === null ? 1 : 2),
    };
    this.cache.set(key, entry);
    this.bytes += entry.bytes;
    this.evict();
    return entry;
  }

  dispose(): void {
    for (const entry of this.cache.values()) {
      entry.image.delete();
      entry.opaqueImage?.delete();
    }
    this.cache.clear();
    this.bytes = 0;
    this.coverage.release();
  }

  private evict(): void {
    for (const [key, entry] of this.cache) {
      // Keep at least the newest entry, whatever its size: it is about to be drawn.
      if (this.bytes <= this.maxBytes || this.cache.size <= 1) return;
      entry.image.delete();
      entry.opaqueImage?.delete();
      this.cache.delete(key);
      this.bytes -= entry.bytes;
    }
  }

  private idOf(rgba: Uint8Array): number {
    let id = this.ids.get(rgba);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(rgba, id);
    }
    return id;
  }

  /** Draws `overlay` over the premultiplied pixels, in place. */
  private drawOver(pixels: Uint8Array, width: number, height: number, overlay: ImageOverlay): void {
    const surface = this.coverage.acquire(width, height);
    this.coverage.pixels().set(pixels);
    const canvas = surface.getCanvas();
    canvas.save();
    canvas.concat(overlay.matrix);
    overlay.draw(canvas);
    canvas.restore();
    surface.flush();
    pixels.set(this.coverage.pixels());
  }

  /** Multiplies each pixel's alpha by the antialiased coverage of the outlines (all of them: an intersection). */
  private applyCoverage(pixels: Uint8Array, width: number, height: number, clip: ImageClip): void {
    const { ck } = this;
    const surface = this.coverage.acquire(width, height);
    const canvas = surface.getCanvas();
    canvas.clear(Float32Array.of(0, 0, 0, 0));
    canvas.save();
    canvas.concat(clip.matrix);
    // The same clips Skia would apply under the image, so the coverage is the clip's own.
    for (const outline of clip.outlines) canvas.clipPath(outline, ck.ClipOp.Intersect, true);
    if (clip.rrect) canvas.clipRRect(clip.rrect, ck.ClipOp.Intersect, true);
    const paint = new ck.Paint();
    paint.setColor(Float32Array.of(1, 1, 1, 1));
    canvas.drawPaint(paint);
    paint.delete();
    canvas.restore();
    surface.flush();
    const coverage = this.coverage.pixels();
    for (let i = 3; i < pixels.length; i += 4) {
      const c = coverage[i] ?? 0;
      if (c === 255) continue;
      const t = (pixels[i] ?? 0) * c + 128;
      pixels[i] = (t + (t >> 8)) >> 8;
    }
  }
}

/**
 * The layer's colour matrices, in order, on straight RGBA bytes: each result clamped to 0..1, as
 * Skia's matrix colour filters (and CSS between filter functions) do.
 */
function applyColorMatrices(pixels: Uint8Array, matrices: readonly ColorMatrix[]): void {
  const values = new Float64Array(pixels.length);
  for (let i = 0; i < pixels.length; i++) values[i] = (pixels[i] ?? 0) / 255;
  for (const matrix of matrices) {
    const [r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0] = matrix;
    const [b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0] = matrix.slice(10);
    for (let i = 0; i < values.length; i += 4) {
      const r = values[i] ?? 0;
      const g = values[i + 1] ?? 0;
      const b = values[i + 2] ?? 0;
      const a = values[i + 3] ?? 0;
      values[i] = clamp01(r0 * r + r1 * g + r2 * b + r3 * a + r4);
      values[i + 1] = clamp01(g0 * r + g1 * g + g2 * b + g3 * a + g4);
      values[i + 2] = clamp01(b0 * r + b1 * g + b2 * b + b3 * a + b4);
      values[i + 3] = clamp01(a0 * r + a1 * g + a2 * b + a3 * a + a4);
    }
  }
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.round((values[i] ?? 0) * 255);
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
