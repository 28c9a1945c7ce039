/**
 * Builds files/NotoColorEmoji-Regular.ttf from the woff2 shipped in @fontsource/noto-color-emoji.
 * Run once (`node packages/fonts/scripts/build-emoji.ts`); the output is committed so installs and
 * renders need nothing from the network.
 *
 * Why: npm only carries Noto Color Emoji as woff2, which CanvasKit's Typeface loader cannot parse.
 * The fontsource "emoji" subset holds every emoji in one face with COLRv1 + an SVG table + glyf
 * outlines. Skia draws COLRv1 and ignores OpenType SVG, so the SVG table (20 MB of the 25 MB
 * decompressed) is dropped: the result is about 5 MB and draws identically.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const wawoff2 = require("wawoff2") as { decompress(input: Uint8Array): Promise<Uint8Array> };

const here = dirname(fileURLToPath(import.meta.url));
const source = require.resolve("@fontsource/noto-color-emoji/files/noto-color-emoji-emoji-400-normal.woff2");
const target = join(here, "..", "files", "NotoColorEmoji-Regular.ttf");
const DROPPED_TABLES = new Set(["SVG "]);

interface TableRecord {
  tag: string;
  data: Buffer;
}

function readTables(font: Buffer): TableRecord[] {
  const count = font.readUInt16BE(4);
  const tables: TableRecord[] = [];
  for (let i = 0; i < count; i++) {
    const record = 12 + 16 * i;
    const tag = font.toString("latin1", record, record + 4);
    const offset = font.readUInt32BE(record + 8);
    const length = font.readUInt32BE(record + 12);
    tables.push({ tag, data: font.subarray(offset, offset + length) });
  }
  return tables;
}

function checksum(data: Buffer): number {
  const padded = Buffer.alloc((data.length + 3) & ~3);
  data.copy(padded);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

/** Writes an sfnt with the given tables, sorted by tag, 4-byte aligned, checksums recomputed. */
function writeSfnt(sfntVersion: number, tables: TableRecord[]): Buffer {
  const sorted = [...tables].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const count = sorted.length;
  const entrySelector = Math.floor(Math.log2(count));
  const searchRange = 2 ** entrySelector * 16;
  const headerSize = 12 + 16 * count;
  let size = headerSize;
  for (const t of sorted) size += (t.data.length + 3) & ~3;
  const out = Buffer.alloc(size);
  out.writeUInt32BE(sfntVersion, 0);
  out.writeUInt16BE(count, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(count * 16 - searchRange, 10);
  let offset = headerSize;
  let headOffset = -1;
  sorted.forEach((t, i) => {
    const data = Buffer.from(t.data);
    // checkSumAdjustment must be zero while the table and file checksums are computed.
    if (t.tag === "head") data.writeUInt32BE(0, 8);
    const record = 12 + 16 * i;
    out.write(t.tag, record, "latin1");
    out.writeUInt32BE(checksum(data), record + 4);
    out.writeUInt32BE(offset, record + 8);
    out.writeUInt32BE(data.length, record + 12);
    data.copy(out, offset);
    if (t.tag === "head") headOffset = offset;
    offset += (data.length + 3) & ~3;
  });
  if (headOffset >= 0) out.writeUInt32BE((0xb1b0afba - checksum(out)) >>> 0, headOffset + 8);
  return out;
}

const decompressed = Buffer.from(await wawoff2.decompress(readFileSync(source)));
const kept = readTables(decompressed).filter((t) => !DROPPED_TABLES.has(t.tag));
const font = writeSfnt(decompressed.readUInt32BE(0), kept);
writeFileSync(target, font);
console.log(`wrote ${target}: ${font.length} bytes, tables ${kept.map((t) => t.tag).join(" ")}`);
