/**
 * Engine pixels are premultiplied RGBA; ImageData wants straight RGBA. Opaque pixels are identical
 * in both, so only translucent ones are divided (a frame with a background skips the loop).
 */
export function toImageData(width: number, height: number, pixels: Uint8Array, opaque: boolean): ImageData {
  // Opaque frames (any frame with a background) wrap the engine's copy as is: no second copy.
  if (opaque) {
    return new ImageData(
      new Uint8ClampedArray(pixels.buffer as ArrayBuffer, pixels.byteOffset, pixels.byteLength),
      width,
      height,
    );
  }
  const image = new ImageData(width, height);
  writeImageData(image, pixels, opaque);
  return image;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/** The conversion into an existing ImageData of the same size (the design canvas reuses one). */
export function writeImageData(target: ImageData, pixels: Uint8Array, opaque: boolean): void {
  const out = target.data;
  out.set(pixels);
  if (opaque) return;
  for (let i = 0; i < out.length; i += 4) {
    const a = out[i + 3] as number;
    if (a === 255 || a === 0) continue;
    out[i] = Math.round(((out[i] as number) * 255) / a);
    out[i + 1] = Math.round(((out[i + 1] as number) * 255) / a);
    out[i + 2] = Math.round(((out[i + 2] as number) * 255) / a);
  }
}
