import { crc32 } from "node:zlib";
import sharp from "sharp";

/** A `width` x `height` PNG whose left half is `left` and right half is `right` (opaque). */
export async function splitImage(
  width: number,
  height: number,
  left: [number, number, number],
  right: [number, number, number],
): Promise<{ raw: Buffer; png: Buffer }> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(x < width / 2 ? left : right, (y * width + x) * 3);
  }
  const png = await sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return { raw, png };
}

export function solid(width: number, height: number, colour: string) {
  return sharp({ create: { width, height, channels: 3, background: colour } });
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG header claiming `width` x `height` pixels, with almost no pixel data behind it. */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from("\x89PNG\r\n\x1a\n", "latin1"),
    chunk("IHDR", ihdr),
    chunk("IDAT", Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** RGBA of the pixel at (x, y). */
export function pixelAt(rgba: Uint8Array, width: number, x: number, y: number): number[] {
  const i = (y * width + x) * 4;
  return [...rgba.subarray(i, i + 4)];
}

export function expectClose(actual: number[], expected: number[], tolerance: number): void {
  const far = actual.some((v, i) => Math.abs(v - (expected[i] ?? Number.NaN)) > tolerance);
  if (far)
    throw new Error(`expected ${JSON.stringify(actual)} within ${tolerance} of ${JSON.stringify(expected)}`);
}
