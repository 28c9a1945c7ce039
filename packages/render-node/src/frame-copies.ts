import { endianness } from "node:os";
import type { PixelFrame } from "./encode.ts";

const MAX_KEPT_COPY_BYTES = 16 * 1024 * 1024;
const LITTLE_ENDIAN = endianness() === "LE";

/**
 * An opaque frame's RGBA pixels packed as RGB into `out` (3 bytes a pixel). Opaque pixels are already
 * straight colour, so dropping alpha is all an encoder needs; done here, four pixels a step as three
 * 32-bit words, it costs about half of what sharp's removeAlpha did on the reference card (libvips'
 * band extraction, 1.3 ms of its 5.9 ms PNG encode), for the same encoded bytes.
 */
export function packRgb(rgba: Uint8Array, out: Uint8Array): Uint8Array {
  const n = rgba.length >> 2;
  if (out.length !== n * 3) throw new RangeError(`expected ${n * 3} bytes for ${n} RGB pixels`);
  let done = 0;
  if (LITTLE_ENDIAN && rgba.byteOffset % 4 === 0 && out.byteOffset % 4 === 0) {
    const quads = n >> 2;
    const src = new Uint32Array(rgba.buffer, rgba.byteOffset, quads * 4);
    const dst = new Uint32Array(out.buffer, out.byteOffset, quads * 3);
    for (let p = 0, o = 0; p < quads * 4; p += 4, o += 3) {
      const a = src[p] as number;
      const b = src[p + 1] as number;
      const c = src[p + 2] as number;
      const d = src[p + 3] as number;
      // Little-endian words hold R, G, B, A from the low byte up.
      dst[o] = (a & 0xffffff) | (b << 24);
      dst[o + 1] = ((b >>> 8) & 0xffff) | (c << 16);
      dst[o + 2] = ((c >>> 16) & 0xff) | (d << 8);
    }
    done = quads * 4;
  }
  for (let p = done; p < n; p++) {
    out[p * 3] = rgba[p * 4] as number;
    out[p * 3 + 1] = rgba[p * 4 + 1] as number;
    out[p * 3 + 2] = rgba[p * 4 + 2] as number;
  }
  return out;
}

/**
 * Frames copied out of the engine, in buffers reused between renders: a fresh multi-megabyte buffer
 * per render costs page faults (on a VM, first touches of memory are slow). An opaque frame is copied
 * packed as RGB (packRgb), which the encoder takes as it is; a translucent one as it is. Two buffers
 * kept per size at most, none larger than 16 MiB (a scale-4 render's: memory held for a rare size).
 */
export class FrameCopies {
  readonly #free: Uint8Array[] = [];
  /** Buffers too large to keep that this made: given back to the system as soon as they are given back here. */
  readonly #large = new WeakSet<ArrayBufferLike>();

  /** A copy of the frame the engine drew, no longer tied to its memory; give it back once encoded. */
  take(frame: PixelFrame): PixelFrame {
    if (frame.channels === 3) return frame;
    const packed = frame.opaque;
    const bytes = packed ? (frame.pixels.length / 4) * 3 : frame.pixels.length;
    const at = this.#free.findIndex((b) => b.byteLength === bytes);
    const copy = at >= 0 ? (this.#free.splice(at, 1)[0] as Uint8Array) : new Uint8Array(bytes);
    if (bytes > MAX_KEPT_COPY_BYTES) this.#large.add(copy.buffer);
    if (!packed) {
      copy.set(frame.pixels);
      return { ...frame, pixels: copy };
    }
    return {
      width: frame.width,
      height: frame.height,
      opaque: true,
      channels: 3,
      pixels: packRgb(frame.pixels, copy),
    };
  }

  clear(): void {
    this.#free.length = 0;
  }

  /** Once every encode of the copy has settled: nothing may read its pixels afterwards. */
  give(copy: PixelFrame): void {
    if (copy.pixels.byteLength > MAX_KEPT_COPY_BYTES) {
      // Freed now rather than at V8's next collection, which an idle render thread may not run for a
      // long while: a scale-4 burst left two 35 MB copies resident beside the frame being drawn.
      // Detaching the buffer (a transfer to a new empty one) frees its memory at once.
      const buffer = copy.pixels.buffer;
      if (this.#large.has(buffer)) {
        this.#large.delete(buffer);
        (buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
      }
      return;
    }
    if (this.#free.length >= 2) this.#free.shift();
    this.#free.push(copy.pixels);
  }
}
