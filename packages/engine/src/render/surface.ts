import type { CanvasKit, ColorSpace, MallocObj, Surface } from "canvaskit-wasm";

// The typings demand a ColorSpace; null is what Skia takes for "no colour space" (no conversions).
const NO_COLOR_SPACE = null as unknown as ColorSpace;

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

  /**
   * The surface's pixels, premultiplied RGBA. Taken fresh after every draw: a view made before the
   * wasm heap grew would be detached.
   */
  pixels(): Uint8Array {
    if (!this.memory) throw new Error("no surface acquired");
    return this.memory.toTypedArray() as Uint8Array;
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
