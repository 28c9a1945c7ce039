import { createRequire } from "node:module";
import { inflateSync } from "node:zlib";
import { type FontContainer, sniffFont } from "../../domain/assets/font-magic.ts";
import type { FontFaceInfo } from "../../ports/asset-library.ts";

/**
 * wawoff2 is CommonJS without types: Google's woff2 decoder compiled to wasm. Loaded on the first
 * WOFF2 upload: it sets up a 16 MB heap as soon as it is loaded, which every API process carried
 * from its start for an upload most never see.
 */
const decompressWoff2 = (woff2: Uint8Array): Promise<Uint8Array> =>
  (createRequire(import.meta.url)("wawoff2/decompress.js") as (woff2: Uint8Array) => Promise<Uint8Array>)(
    woff2,
  );

/** A font upload that cannot be used; the message says what is wrong with the file. */
export class FontFileError extends Error {}

/** An uploaded font as stored: plain sfnt bytes, which both CanvasKit and browsers load. */
export interface DecodedFont extends FontFaceInfo {
  sfnt: Uint8Array;
  /** `font/ttf` (TrueType outlines) or `font/otf` (CFF outlines). */
  contentType: "font/ttf" | "font/otf";
  uploadedAs: FontContainer;
}

/** An sfnt above this is no brand font; CJK families are ~20 MB. Caps decompression too. */
export const MAX_FONT_BYTES = 30 * 1024 * 1024;

const tag = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * Turns TTF/OTF/WOFF/WOFF2 bytes into a checked sfnt and reads the face it holds. WOFF and WOFF2
 * are unwrapped here because CanvasKit (and so the engine) reads only sfnt: WOFF1 is zlib per
 * table, WOFF2 needs Brotli plus the glyf/loca transform (wawoff2, Google's woff2 in wasm).
 */
export async function decodeFont(bytes: Uint8Array): Promise<DecodedFont> {
  const container = sniffFont(bytes);
  if (container === null) throw new FontFileError("not a font file (expected TTF, OTF, WOFF or WOFF2)");
  if (container === "collection") {
    throw new FontFileError("font collections (.ttc) are not supported; upload each face as a TTF or OTF");
  }
  let sfnt: Uint8Array;
  if (container === "woff") sfnt = unwrapWoff(bytes);
  else if (container === "woff2") {
    try {
      sfnt = new Uint8Array(await decompressWoff2(bytes));
    } catch {
      throw new FontFileError("the WOFF2 file is corrupt (cannot be decompressed)");
    }
  } else sfnt = bytes;
  if (sfnt.byteLength > MAX_FONT_BYTES) {
    throw new FontFileError(`the font is over ${MAX_FONT_BYTES / 1024 / 1024} MiB once decompressed`);
  }
  const tables = readTableDirectory(sfnt);
  const face = readFace(sfnt, tables);
  return {
    ...face,
    sfnt,
    contentType: tables.has("CFF ") || tables.has("CFF2") ? "font/otf" : "font/ttf",
    uploadedAs: container,
  };
}

interface TableRecord {
  offset: number;
  length: number;
}

function readTableDirectory(sfnt: Uint8Array): Map<string, TableRecord> {
  const view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
  if (sfnt.byteLength < 12) throw new FontFileError("the font file is truncated (no table directory)");
  const flavor = tag(sfnt, 0);
  if (flavor !== "\0\x01\0\0" && flavor !== "true" && flavor !== "OTTO") {
    throw new FontFileError("the decompressed data is not an sfnt font");
  }
  const numTables = view.getUint16(4);
  if (numTables === 0 || 12 + numTables * 16 > sfnt.byteLength) {
    throw new FontFileError("the font file is truncated (table directory)");
  }
  const tables = new Map<string, TableRecord>();
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length > sfnt.byteLength) {
      throw new FontFileError(
        `the font file is truncated (table '${tag(sfnt, at).trim()}' runs past the end)`,
      );
    }
    tables.set(tag(sfnt, at), { offset, length });
  }
  const outlines = (tables.has("glyf") && tables.has("loca")) || tables.has("CFF ") || tables.has("CFF2");
  const missing = ["cmap", "head", "hhea", "hmtx", "maxp", "name"].filter((t) => !tables.has(t));
  if (missing.length > 0 || !outlines) {
    throw new FontFileError(
      `the font lacks required tables (${[...missing, ...(outlines ? [] : ["glyf/CFF"])].join(", ")})`,
    );
  }
  return tables;
}

function readFace(sfnt: Uint8Array, tables: Map<string, TableRecord>): FontFaceInfo {
  const view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
  const family = readFamilyName(sfnt, tables.get("name") as TableRecord);
  if (!family) throw new FontFileError("the font has no family name (name table IDs 16 or 1)");
  let weight = 400;
  let italic = false;
  const os2 = tables.get("OS/2");
  if (os2 && os2.length >= 64) {
    weight = view.getUint16(os2.offset + 4);
    italic = (view.getUint16(os2.offset + 62) & 1) === 1;
  } else {
    const head = tables.get("head") as TableRecord;
    if (head.length >= 46) italic = (view.getUint16(head.offset + 44) & 2) === 2;
  }
  return {
    family,
    weight: Math.min(900, Math.max(100, Math.round(weight / 100) * 100)),
    style: italic ? "italic" : "normal",
  };
}

/** Typographic family (ID 16) before legacy family (ID 1); Windows Unicode names before Mac Roman. */
function readFamilyName(sfnt: Uint8Array, name: TableRecord): string | null {
  const view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
  if (name.length < 6) return null;
  const count = view.getUint16(name.offset + 2);
  const storage = name.offset + view.getUint16(name.offset + 4);
  let best: { rank: number; value: string } | null = null;
  for (let i = 0; i < count; i++) {
    const at = name.offset + 6 + i * 12;
    if (at + 12 > name.offset + name.length) break;
    const platform = view.getUint16(at);
    const language = view.getUint16(at + 4);
    const nameId = view.getUint16(at + 6);
    const length = view.getUint16(at + 8);
    const start = storage + view.getUint16(at + 10);
    if ((nameId !== 16 && nameId !== 1) || start + length > sfnt.byteLength) continue;
    let value: string;
    if (platform === 3 || platform === 0) {
      value = new TextDecoder("utf-16be").decode(sfnt.subarray(start, start + length));
    } else if (platform === 1) {
      value = String.fromCharCode(...sfnt.subarray(start, start + length));
    } else continue;
    value = value.replace(/\p{Cc}/gu, "").trim();
    if (value === "") continue;
    const rank = (nameId === 16 ? 0 : 4) + (platform === 3 ? (language === 0x409 ? 0 : 1) : 2);
    if (!best || rank < best.rank) best = { rank, value };
  }
  return best ? best.value.slice(0, 100) : null;
}

/** WOFF 1.0 to sfnt: each table is zlib-compressed unless its compressed length equals its length. */
function unwrapWoff(woff: Uint8Array): Uint8Array {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (woff.byteLength < 44) throw new FontFileError("the WOFF file is truncated (header)");
  const flavor = view.getUint32(4);
  const numTables = view.getUint16(12);
  const totalSfntSize = view.getUint32(16);
  if (numTables === 0 || 44 + numTables * 20 > woff.byteLength) {
    throw new FontFileError("the WOFF file is truncated (table directory)");
  }
  if (totalSfntSize > MAX_FONT_BYTES) {
    throw new FontFileError(`the font is over ${MAX_FONT_BYTES / 1024 / 1024} MiB once decompressed`);
  }
  // The header's total is only a claim: the tables' own lengths are what gets inflated. Checked
  // before inflating anything, so a small file cannot make the server allocate gigabytes.
  let declared = 0;
  for (let i = 0; i < numTables; i++) declared += view.getUint32(44 + i * 20 + 12);
  if (declared > MAX_FONT_BYTES) {
    throw new FontFileError(
      `the font's tables add up to over ${MAX_FONT_BYTES / 1024 / 1024} MiB once decompressed`,
    );
  }
  const tables: { tag: number; checksum: number; data: Uint8Array }[] = [];
  for (let i = 0; i < numTables; i++) {
    const at = 44 + i * 20;
    const offset = view.getUint32(at + 4);
    const compLength = view.getUint32(at + 8);
    const origLength = view.getUint32(at + 12);
    if (offset + compLength > woff.byteLength || compLength > origLength) {
      throw new FontFileError("the WOFF file is corrupt (a table runs past the end)");
    }
    const stored = woff.subarray(offset, offset + compLength);
    let data: Uint8Array;
    if (compLength === origLength) data = stored;
    else {
      try {
        data = new Uint8Array(inflateSync(stored, { maxOutputLength: origLength }));
      } catch {
        throw new FontFileError("the WOFF file is corrupt (a table does not decompress)");
      }
    }
    if (data.byteLength !== origLength) throw new FontFileError("the WOFF file is corrupt (table length)");
    tables.push({ tag: view.getUint32(at), checksum: view.getUint32(at + 16), data });
  }
  return buildSfnt(flavor, tables);
}

/** Assembles an sfnt from tables (sorted by tag, 4-byte aligned, with the binary-search header fields). */
export function buildSfnt(
  flavor: number,
  tables: { tag: number; checksum: number; data: Uint8Array }[],
): Uint8Array {
  const sorted = [...tables].sort((a, b) => a.tag - b.tag);
  const headerSize = 12 + sorted.length * 16;
  const size = sorted.reduce((n, t) => n + Math.ceil(t.data.byteLength / 4) * 4, headerSize);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const pow = 2 ** Math.floor(Math.log2(sorted.length));
  view.setUint32(0, flavor);
  view.setUint16(4, sorted.length);
  view.setUint16(6, pow * 16);
  view.setUint16(8, Math.log2(pow));
  view.setUint16(10, sorted.length * 16 - pow * 16);
  let offset = headerSize;
  sorted.forEach((t, i) => {
    const at = 12 + i * 16;
    view.setUint32(at, t.tag);
    view.setUint32(at + 4, t.checksum);
    view.setUint32(at + 8, offset);
    view.setUint32(at + 12, t.data.byteLength);
    out.set(t.data, offset);
    offset += Math.ceil(t.data.byteLength / 4) * 4;
  });
  return out;
}
