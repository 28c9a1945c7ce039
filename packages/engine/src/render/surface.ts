import type { Canvas, CanvasKit, ColorSpace, Image, MallocObj, Surface } from "canvaskit-wasm";

// The typings demand a ColorSpace; null is what Skia takes for "no colour space" (no conversions).
const NO_COLOR_SPACE = null as unknown as ColorSpace;

/**
 * An image of `width` x `height` premultiplied RGBA pixels (copied), declared opaque when `opaque`
 * (Skia then copies it instead of blending each pixel), without a colour space unless one is given.
 */
export function pixelImage(
  ck: CanvasKit,
  pixels: Uint8Array,
  width: number,
  height: number,
  opaque = false,
  colorSpace: ColorSpace = NO_COLOR_SPACE,
): Image {
  const image = ck.MakeImage(
    {
      width,
      height,
      colorType: ck.ColorType.RGBA_8888,
      alphaType: opaque ? ck.AlphaType.Opaque : ck.AlphaType.Premul,
      colorSpace,
    },
    pixels,
    width * 4,
  );
  if (!image) throw new Error(`could not make a ${width}x${height} image`);
  return image;
}

/**
 * A CPU raster surface without colour space drawing into memory the engine owns (architecture.md:
 * the sRGB surface made a translucent rounded rectangle 17x slower, and reading back through
 * `readPixels` copies). Kept across renders of the same size; reallocated only when the size changes.
 */
export class RasterSurface {
  private readonly canvasKit: CanvasKit;
  private memory: MallocObj | null = null;
  private surface: Surface | null = null;
  private width = 0;
  private height = 0;

  constructor(canvasKit: CanvasKit) {
    this.canvasKit = canvasKit;
  }

  acquire(width: number, height: number): Surface {
    if (this.surface && width === this.width && height === this.height) return this.surface;
    this.release();
    const ck = this.canvasKit;
    const memory = ck.Malloc(Uint8Array, width * height * 4);
    const surface = ck.MakeRasterDirectSurface(
      {
        width,
        height,
        colorType: ck.ColorType.RGBA_8888,
        alphaType: ck.AlphaType.Premul,
        colorSpace: NO_COLOR_SPACE,
      },
      memory,
      width * 4,
    );
    if (!surface) {
      ck.Free(memory);
      throw new Error(`could not create a ${width}x${height} raster surface`);
    }
    this.memory = memory;
    this.surface = surface;
    this.width = width;
    this.height = height;
    return surface;
  }

  /** A surface of this size cleared to transparent, with `draw` drawn on it under `matrix`. */
  drawCleared(width: number, height: number, matrix: number[], draw: (canvas: Canvas) => void): Surface {
    const surface = this.acquire(width, height);
    const canvas = surface.getCanvas();
    canvas.clear(this.canvasKit.TRANSPARENT);
    canvas.save();
    canvas.concat(matrix);
    try {
      draw(canvas);
    } finally {
      canvas.restore();
    }
    surface.flush();
    return surface;
  }

  /**
   * The surface's pixels, premultiplied RGBA. Taken fresh after every draw: a view made before the
   * wasm heap grew would be detached.
   */
  pixels(): Uint8Array {
    if (!this.memory) throw new Error("no surface acquired");
    return this.memory.toTypedArray() as Uint8Array;
  }

  /**
   * An image of the surface's rows `top` to `top + height` (all of them by default), as pixelImage
   * makes one, from a copy of them outside the wasm heap: CanvasKit's MakeImage allocates its own
   * copy in the heap before it reads the pixels it is given, and when that allocation grows the heap,
   * every view of the heap taken before (the surface's pixels) is detached and the read throws
   * ("Cannot perform %TypedArray%.prototype.set on a detached ArrayBuffer"). Whether it grows depends
   * on what the heap holds at that moment: an editor thumbnail failed so about once in a few dozen.
   */
  image(opaque: boolean, rows: { top: number; height: number } = { top: 0, height: this.height }): Image {
    const rowBytes = this.width * 4;
    const pixels = this.pixels().slice(rows.top * rowBytes, (rows.top + rows.height) * rowBytes);
    return pixelImage(this.canvasKit, pixels, this.width, rows.height, opaque);
  }

  /** Finishes pending drawing, so `pixels()` holds it. */
  flush(): void {
    this.surface?.flush();
  }

  release(): void {
    this.surface?.delete();
    if (this.memory) this.canvasKit.Free(this.memory);
    this.surface = null;
    this.memory = null;
    this.width = 0;
    this.height = 0;
  }
}

/** Backgrounds larger than this are drawn every time rather than kept (a 4x frame of 2400x2520 is 96 MB). */
export const MAX_KEPT_BACKGROUND_BYTES = 16 * 1024 * 1024;

/**
 * The pixels of the last gradient background drawn, copied back into the surface when the next
 * render has the same one (same paint, size and scale): a template's background rarely changes
 * between renders, and copying 3 MB takes a fraction of drawing it. The bytes are exactly the drawn
 * ones, so a copy and a drawing cannot differ.
 */
export class LastBackground {
  private key: string | null = null;
  private pixels: Uint8Array | null = null;
  private readonly maxBytes: number;

  constructor(maxBytes = MAX_KEPT_BACKGROUND_BYTES) {
    this.maxBytes = maxBytes;
  }

  /** The kept pixels of the background named `key`, or null. */
  pixelsOf(key: string): Uint8Array | null {
    return this.key === key ? this.pixels : null;
  }

  draw(surface: RasterSurface, key: string, drawIt: () => void): void {
    const target = surface.pixels();
    if (this.key === key && this.pixels !== null && this.pixels.length === target.length) {
      target.set(this.pixels);
      return;
    }
    drawIt();
    surface.flush();
    const drawn = surface.pixels();
    this.key = drawn.length <= this.maxBytes ? key : null;
    this.pixels = this.key === null ? null : drawn.slice();
  }
}
