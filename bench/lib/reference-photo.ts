import sharp from "sharp";

/**
 * A photo-like JPEG made on the spot (no binary in Git, identical every run): a sky gradient, hills,
 * a sun and film grain (seeded turbulence), 1600x1067 at quality 85, like a typical uploaded hero image.
 */
export async function makeReferencePhoto(): Promise<Uint8Array> {
  const width = 1600;
  const height = 1067;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1d4e89"/><stop offset="0.6" stop-color="#f4a259"/><stop offset="1" stop-color="#f6d7a7"/>
    </linearGradient>
    <radialGradient id="sun"><stop offset="0" stop-color="#fff6d5"/><stop offset="1" stop-color="#f4a259" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#sky)"/>
  <circle cx="1100" cy="560" r="260" fill="url(#sun)"/>
  <path d="M0 780 C 300 640, 520 700, 800 760 S 1300 640, 1600 720 V 1067 H 0 Z" fill="#2f5d50"/>
  <filter id="grain"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="7"/><feColorMatrix type="saturate" values="0"/></filter>
  <rect width="100%" height="100%" filter="url(#grain)" opacity="0.12"/>
  <path d="M0 880 C 380 800, 700 900, 1000 860 S 1400 820, 1600 900 V 1067 H 0 Z" fill="#1f3b33"/>
</svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
  return new Uint8Array(jpeg);
}

/**
 * The same JPEG with different bytes: a comment segment carrying `n` right after the start-of-image
 * marker. The pixels are identical, so a render costs what a new photo of this size costs, while any
 * cache keyed by the bytes (a content hash) misses.
 */
export function photoWithNewBytes(jpeg: Uint8Array, n: number): Uint8Array {
  const text = new TextEncoder().encode(`fresh ${n}`);
  const length = text.byteLength + 2;
  const out = new Uint8Array(jpeg.byteLength + 2 + length);
  out.set(jpeg.subarray(0, 2), 0);
  out.set([0xff, 0xfe, length >> 8, length & 0xff], 2);
  out.set(text, 6);
  out.set(jpeg.subarray(2), 6 + text.byteLength);
  return out;
}
