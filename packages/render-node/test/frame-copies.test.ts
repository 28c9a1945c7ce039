import { describe, expect, it } from "vitest";
import { FrameCopies } from "../src/frame-copies.ts";

const opaqueFrame = (width: number, height: number) => ({
  width,
  height,
  opaque: true,
  pixels: new Uint8Array(width * height * 4).fill(255),
});

describe("frame copies", () => {
  it("frees a copy too large to keep when it is given back, and keeps a small one for the next frame", () => {
    const copies = new FrameCopies();
    // 2400x2400 packed as RGB is 17.3 MB, above the 16 MiB kept.
    const large = copies.take(opaqueFrame(2400, 2400));
    expect(large.pixels.byteLength).toBe(2400 * 2400 * 3);
    copies.give(large);
    expect(large.pixels.buffer.byteLength).toBe(0);

    const small = copies.take(opaqueFrame(1200, 630));
    copies.give(small);
    expect(small.pixels.byteLength).toBe(1200 * 630 * 3);
    expect(copies.take(opaqueFrame(1200, 630)).pixels).toBe(small.pixels);
  });

  it("leaves a buffer it did not make alone", () => {
    const copies = new FrameCopies();
    const packed = {
      width: 2400,
      height: 2400,
      opaque: true,
      channels: 3 as const,
      pixels: new Uint8Array(2400 * 2400 * 3),
    };
    const same = copies.take(packed);
    copies.give(same);
    expect(packed.pixels.byteLength).toBe(2400 * 2400 * 3);
  });
});
