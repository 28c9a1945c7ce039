/**
 * Recognises image containers from their first bytes, before any decoder sees them. Only raster
 * formats are let through: SVG could reference external files and PDF is a document, so both are
 * refused by name, and anything unrecognised (HTML served as image/png, a zero-byte body) never
 * reaches libvips' format probing.
 */

export type RasterFormat = "jpeg" | "png" | "gif" | "webp" | "avif" | "heif" | "tiff";

export type Sniffed = { kind: "raster"; format: RasterFormat } | { kind: "refused"; reason: string };

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, end));

export function sniffImage(bytes: Uint8Array): Sniffed {
  if (bytes.length === 0) return { kind: "refused", reason: "empty file (0 bytes)" };
  if (bytes.length < 12) return { kind: "refused", reason: "too short to be an image" };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { kind: "raster", format: "jpeg" };
  }
  if (ascii(bytes, 0, 8) === "\x89PNG\r\n\x1a\n") return { kind: "raster", format: "png" };
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") {
    return { kind: "raster", format: "gif" };
  }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") {
    return { kind: "raster", format: "webp" };
  }
  if (ascii(bytes, 4, 8) === "ftyp") {
    const brand = ascii(bytes, 8, 12);
    if (brand === "avif" || brand === "avis") return { kind: "raster", format: "avif" };
    if (["heic", "heix", "mif1", "msf1"].includes(brand)) return { kind: "raster", format: "heif" };
  }
  const tiff = ascii(bytes, 0, 4);
  if (tiff === "II*\0" || tiff === "MM\0*") return { kind: "raster", format: "tiff" };
  if (ascii(bytes, 0, 5) === "%PDF-") {
    return { kind: "refused", reason: "PDF documents are not accepted; send a PNG, JPEG or WebP" };
  }
  const head = new TextDecoder("utf-8", { fatal: false })
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, "")
    .trimStart()
    .toLowerCase();
  if (head.includes("<svg") || (head.startsWith("<?xml") && head.includes("svg"))) {
    return {
      kind: "refused",
      reason: "SVG images are not accepted (they can reference external files); send a PNG",
    };
  }
  if (head.startsWith("<")) {
    return { kind: "refused", reason: "the file is HTML or XML text, not an image" };
  }
  return {
    kind: "refused",
    reason: "not a supported image format (accepted: JPEG, PNG, WebP, GIF, AVIF, HEIF, TIFF)",
  };
}
