import type { CanvasKit, Image, InputRRect, Path } from "canvaskit-wasm";
import type { PreparedImage } from "../api.ts";
import type { ColorMatrix } from "./image-filters.ts";
import { isOpaque, premultiplyInto } from "./premultiply.ts";
import { RasterSurface } from "./surface.ts";

/** The coverage of an image: outlines and a rounded rectangle in layer coordinates, and the matrix to its pixels. */
export interface ImageClip {
  matrix: number[];
  outlines: readonly Path[];
  rrect: InputRRect | null;
  key: string;
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
  private readonly cache = new Map<string, { image: Image; bytes: number }>();
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
  composed(prepared: PreparedImage, matrices: readonly ColorMatrix[], clip: ImageClip | null): Image {
    const key = `${this.idOf(prepared.rgba)}|${prepared.width}x${prepared.height}|${JSON.stringify(matrices)}|${clip?.key ?? ""}`;
    const hit = this.cache.get(key);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.image;
    }
    const pixels = Uint8Array.from(prepared.rgba);
    if (matrices.length > 0) applyColorMatrices(pixels, matrices);
    if (clip !== null) this.applyCoverage(pixels, prepared.width, prepared.height, clip);
    // Opaque pixels are declared so: Skia then copies them instead of blending each one.
    const opaque = isOpaque(pixels);
    if (!opaque) premultiplyInto(pixels, pixels);
    const { ck } = this;
    const image = ck.MakeImage(
      {
        width: prepared.width,
        height: prepared.height,
        colorType: ck.ColorType.RGBA_8888,
        alphaType: opaque ? ck.AlphaType.Opaque : ck.AlphaType.Premul,
        colorSpace: ck.ColorSpace.SRGB,
      },
      pixels,
      prepared.width * 4,
    );
    if (!image) throw new Error(`could not make an image of ${prepared.width}x${prepared.height}`);
    this.cache.set(key, { image, bytes: pixels.length });
    this.bytes += pixels.length;
    this.evict();
    return image;
  }

  dispose(): void {
    for (const entry of this.cache.values()) entry.image.delete();
    this.cache.clear();
    this.bytes = 0;
    this.coverage.release();
  }

  private evict(): void {
    for (const [key, entry] of this.cache) {
      // Keep at least the newest entry, whatever its size: it is about to be drawn.
      if (this.bytes <= this.maxBytes || this.cache.size <= 1) return;
      entry.image.delete();
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
