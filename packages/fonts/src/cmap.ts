/**
 * Which code points a font maps to a glyph, read from its `cmap` table without loading the font:
 * what lets a render thread decide which faces a text needs before registering any (the engine's
 * FontSet.deferred). Pure: works on bytes; the Node reader in index.ts reads only the tables needed.
 */

/** Sorted, disjoint inclusive ranges as pairs: `[first0, last0, first1, last1, ...]`. */
export type CodePointRanges = Uint32Array;

/** Offset and length of a table in an OpenType/TrueType file, from its table directory. */
export function findTable(directory: Uint8Array, tag: string): { offset: number; length: number } | null {
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
  const tables = view.getUint16(4);
  for (let i = 0; i < tables; i++) {
    const at = 12 + i * 16;
    if (at + 16 > directory.byteLength) return null;
    const name = String.fromCharCode(
      view.getUint8(at),
      view.getUint8(at + 1),
      view.getUint8(at + 2),
      view.getUint8(at + 3),
    );
    if (name === tag) return { offset: view.getUint32(at + 8), length: view.getUint32(at + 12) };
  }
  return null;
}

/** Bytes of the table directory of a font with `tables` tables (from the header's numTables). */
export const directoryLength = (tables: number) => 12 + tables * 16;

/** Code points the `cmap` table maps to a glyph other than 0 (formats 4 and 12; 12 when present). */
export function cmapCoverage(cmap: Uint8Array): CodePointRanges {
  const view = new DataView(cmap.buffer, cmap.byteOffset, cmap.byteLength);
  const count = view.getUint16(2);
  let format4 = -1;
  let format12 = -1;
  for (let i = 0; i < count; i++) {
    const platform = view.getUint16(4 + i * 8);
    const encoding = view.getUint16(6 + i * 8);
    const offset = view.getUint32(8 + i * 8);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    const format = view.getUint16(offset);
    if (format === 12 && format12 < 0) format12 = offset;
    if (format === 4 && format4 < 0) format4 = offset;
  }
  const ranges: number[] = [];
  const add = (first: number, last: number) => {
    const n = ranges.length;
    if (n > 0 && (ranges[n - 1] as number) + 1 >= first)
      ranges[n - 1] = Math.max(ranges[n - 1] as number, last);
    else ranges.push(first, last);
  };
  const mapped: [number, number][] = [];
  if (format12 >= 0) {
    const groups = view.getUint32(format12 + 12);
    for (let g = 0; g < groups; g++) {
      const at = format12 + 16 + g * 12;
      const first = view.getUint32(at);
      const last = view.getUint32(at + 4);
      const glyph = view.getUint32(at + 8);
      // A group starting at glyph 0 maps its first code point to .notdef.
      if (glyph === 0) {
        if (last > first) mapped.push([first + 1, last]);
      } else mapped.push([first, last]);
    }
  } else if (format4 >= 0) {
    const segments = view.getUint16(format4 + 6) / 2;
    const ends = format4 + 14;
    const starts = ends + segments * 2 + 2;
    const deltas = starts + segments * 2;
    const rangeOffsets = deltas + segments * 2;
    for (let s = 0; s < segments; s++) {
      const end = view.getUint16(ends + s * 2);
      const start = view.getUint16(starts + s * 2);
      const delta = view.getUint16(deltas + s * 2);
      const rangeOffset = view.getUint16(rangeOffsets + s * 2);
      if (start === 0xffff) continue;
      let runStart = -1;
      for (let c = start; c <= end; c++) {
        let glyph: number;
        if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
        else {
          const at = rangeOffsets + s * 2 + rangeOffset + (c - start) * 2;
          glyph = at + 2 <= cmap.byteLength ? view.getUint16(at) : 0;
          if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
        }
        if (glyph !== 0 && runStart < 0) runStart = c;
        if (glyph === 0 && runStart >= 0) {
          mapped.push([runStart, c - 1]);
          runStart = -1;
        }
      }
      if (runStart >= 0) mapped.push([runStart, end]);
    }
  }
  mapped.sort((a, b) => a[0] - b[0]);
  for (const [first, last] of mapped) add(first, last);
  return Uint32Array.from(ranges);
}

/** Code points in either set. */
export function unionRanges(a: CodePointRanges, b: CodePointRanges): CodePointRanges {
  const pairs: [number, number][] = [];
  for (const r of [a, b])
    for (let i = 0; i < r.length; i += 2) pairs.push([r[i] as number, r[i + 1] as number]);
  pairs.sort((x, y) => x[0] - y[0]);
  const out: number[] = [];
  for (const [first, last] of pairs) {
    const n = out.length;
    if (n > 0 && (out[n - 1] as number) + 1 >= first) out[n - 1] = Math.max(out[n - 1] as number, last);
    else out.push(first, last);
  }
  return Uint32Array.from(out);
}

/** Code points in both sets. */
export function intersectRanges(a: CodePointRanges, b: CodePointRanges): CodePointRanges {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const first = Math.max(a[i] as number, b[j] as number);
    const last = Math.min(a[i + 1] as number, b[j + 1] as number);
    if (first <= last) out.push(first, last);
    if ((a[i + 1] as number) < (b[j + 1] as number)) i += 2;
    else j += 2;
  }
  return Uint32Array.from(out);
}
