export type FontContainer = "ttf" | "otf" | "woff" | "woff2";

const tag = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * Recognises a font container from its magic bytes; null when the bytes are not a font. The
 * domain routes an upload by this (fonts go to `fonts/` and to the font inspection).
 */
export function sniffFont(bytes: Uint8Array): FontContainer | "collection" | null {
  if (bytes.length < 4) return null;
  const magic = tag(bytes, 0);
  if (magic === "\0\x01\0\0" || magic === "true") return "ttf";
  if (magic === "OTTO") return "otf";
  if (magic === "wOFF") return "woff";
  if (magic === "wOF2") return "woff2";
  if (magic === "ttcf") return "collection";
  return null;
}
