import { describe, expect, it } from "vitest";
import { boxRadii, castShadow } from "../../src/render/pixel-shadows.ts";

/** A premultiplied RGBA raster with an opaque black square at (x, y) of side `side`. */
function square(width: number, height: number, x: number, y: number, side: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let j = y; j < y + side; j++) for (let i = x; i < x + side; i++) pixels[(j * width + i) * 4 + 3] = 255;
  return pixels;
}

const at = (pixels: Uint8Array, width: number, x: number, y: number) =>
  Array.from(pixels.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));

describe("pixel shadows", () => {
  it("casts an unblurred shadow as the layer's alpha in the shadow's colour, moved by its offset", () => {
    const rect = { left: 100, top: 50, width: 20, height: 20 };
    const layer = square(20, 20, 5, 5, 10);
    const cast = castShadow(
      layer,
      rect,
      { sx: 1, sy: 1, tx: 0, ty: 0 },
      { x: 3, y: -2, blur: 0, color: "#FF000080" },
      [1, 0, 0, 128 / 255],
    );
    expect(cast).not.toBeNull();
    // Cropped to the ink (the square), then moved by the offset.
    expect(cast?.rect).toEqual({ left: 108, top: 53, width: 10, height: 10 });
    expect(at(cast?.pixels ?? new Uint8Array(), 10, 0, 0)).toEqual([128, 0, 0, 128]);
    expect(at(cast?.pixels ?? new Uint8Array(), 10, 9, 9)).toEqual([128, 0, 0, 128]);
  });

  it("blurs with three box blurs: symmetric, spread by their radii, alpha kept", () => {
    const layer = square(40, 40, 15, 15, 10);
    const t = { sx: 1, sy: 1, tx: 0, ty: 0 };
    const cast = castShadow(
      layer,
      { left: 0, top: 0, width: 40, height: 40 },
      t,
      { x: 0, y: 0, blur: 8, color: "#000000" },
      [0, 0, 0, 1],
    );
    const [a, b, c] = boxRadii(4);
    const pad = a + b + c;
    expect(pad).toBeGreaterThan(0);
    expect(cast?.rect.width).toBe(10 + 2 * pad);
    const w = cast?.rect.width ?? 0;
    const pixels = cast?.pixels ?? new Uint8Array();
    const alphaAt = (x: number, y: number) => pixels[(y * w + x) * 4 + 3] ?? 0;
    // Symmetric about the square's centre, darkest there, fading to nothing at the edges.
    for (let i = 0; i < w; i++) expect(alphaAt(i, w >> 1)).toBe(alphaAt(w - 1 - i, w >> 1));
    expect(alphaAt(w >> 1, w >> 1)).toBeGreaterThan(alphaAt(1, w >> 1));
    expect(alphaAt(0, 0)).toBe(0);
    let total = 0;
    for (let i = 3; i < pixels.length; i += 4) total += pixels[i] ?? 0;
    // A blur moves alpha around without making or losing much of it (rounding per pass).
    expect(Math.abs(total - 100 * 255) / (100 * 255)).toBeLessThan(0.05);
  });

  it("scales the blur and the offset with the canvas", () => {
    const layer = square(40, 40, 10, 10, 20);
    const one = castShadow(
      layer,
      { left: 0, top: 0, width: 40, height: 40 },
      { sx: 1, sy: 1, tx: 0, ty: 0 },
      { x: 2, y: 2, blur: 4, color: "#000" },
      [0, 0, 0, 1],
    );
    const two = castShadow(
      layer,
      { left: 0, top: 0, width: 40, height: 40 },
      { sx: 2, sy: 2, tx: 0, ty: 0 },
      { x: 2, y: 2, blur: 4, color: "#000" },
      [0, 0, 0, 1],
    );
    expect((two?.rect.width ?? 0) - 20).toBeGreaterThan((one?.rect.width ?? 0) - 20);
    expect((two?.rect.left ?? 0) - (one?.rect.left ?? 0)).toBe(2 - (sumOf(boxRadii(4)) - sumOf(boxRadii(2))));
  });

  it("casts nothing from a layer with no ink", () => {
    const cast = castShadow(
      new Uint8Array(16 * 4),
      { left: 0, top: 0, width: 4, height: 4 },
      { sx: 1, sy: 1, tx: 0, ty: 0 },
      { x: 0, y: 0, blur: 4, color: "#000" },
      [0, 0, 0, 1],
    );
    expect(cast).toBeNull();
  });
});

const sumOf = (radii: number[]) => radii.reduce((a, b) => a + b, 0);
