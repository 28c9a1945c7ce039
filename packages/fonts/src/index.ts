import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DeferredFontFamily, FontFace, FontSet } from "@pictor/engine";
import {
  type CodePointRanges,
  cmapCoverage,
  directoryLength,
  findTable,
  intersectRanges,
  unionRanges,
} from "./cmap.ts";
import {
  FALLBACK_FAMILIES,
  FONT_COMPANIONS,
  FONT_FACES,
  FONT_FAMILIES,
  type FontCategory,
  fontFileName,
  type ManifestFace,
} from "./manifest.ts";

export { type CodePointRanges, cmapCoverage, intersectRanges, unionRanges } from "./cmap.ts";
export {
  FALLBACK_FAMILIES,
  FONT_COMPANIONS,
  FONT_FACES,
  FONT_FAMILIES,
  type FontCategory,
  type FontStyle,
  fontFileName,
  type ManifestFace,
  type ManifestFamily,
  SHIPPED_FAMILY_NAMES,
} from "./manifest.ts";

const OWN_PACKAGE = "@pictor/fonts";
const ownRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

/** Splits `@scope/name/some/path` into package name and path inside it. */
function splitSpecifier(file: string): { pkg: string; path: string } {
  const parts = file.split("/");
  const take = file.startsWith("@") ? 2 : 1;
  return { pkg: parts.slice(0, take).join("/"), path: parts.slice(take).join("/") };
}

/**
 * Package directory found along Node's node_modules search paths. Not require.resolve: packages
 * with an `exports` map (@embedpdf/fonts-hebrew) refuse to resolve their font files.
 */
function packageRoot(pkg: string): string {
  if (pkg === OWN_PACKAGE) return ownRoot;
  for (const dir of require.resolve.paths(pkg) ?? []) {
    const candidate = join(dir, pkg);
    if (existsSync(join(candidate, "package.json"))) return candidate;
  }
  throw new Error(`font package ${pkg} is not installed`);
}

/** Absolute path of a face's font file on this machine. */
export function fontFilePath(face: ManifestFace): string {
  const { pkg, path } = splitSpecifier(face.file);
  return join(packageRoot(pkg), path);
}

export interface PublicFontFile {
  family: string;
  category: FontCategory;
  weight: number;
  style: ManifestFace["style"];
  /** URL path the browser editor fetches the face from (prefix + unique file name). */
  urlPath: string;
  /** Absolute path on disk, for the server's static handler. */
  file: string;
}

/**
 * Faces as the server serves them to the editor. The editor registers each under `family` with the
 * same fallback list, so browser and Node shape text with identical bytes.
 */
export function publicFontFiles(prefix = "/fonts/"): PublicFontFile[] {
  return FONT_FAMILIES.flatMap(({ category, faces }) =>
    faces.map((face) => ({
      family: face.family,
      category,
      weight: face.weight,
      style: face.style,
      urlPath: `${prefix}${encodeURIComponent(fontFileName(face))}`,
      file: fontFilePath(face),
    })),
  );
}

let fontSet: Promise<FontSet> | undefined;

/**
 * Every face's bytes (116 MB, 50 of them CJK; read in about 0.2 s), once per thread, shared by
 * every engine created in it.
 */
export function loadFontSet(): Promise<FontSet> {
  fontSet ??= readFontSet().catch((error: unknown) => {
    fontSet = undefined;
    throw error;
  });
  return fontSet;
}

async function readFontSet(): Promise<FontSet> {
  const faces = await Promise.all(
    FONT_FACES.map(
      async (face): Promise<FontFace> => ({
        family: face.family,
        weight: face.weight,
        style: face.style,
        bytes: ownBytes(await readFile(fontFilePath(face))),
      }),
    ),
  );
  return { faces, fallback: [...FALLBACK_FAMILIES], companions: { ...FONT_COMPANIONS } };
}

/**
 * A file's bytes as a plain Uint8Array over the same memory: `new Uint8Array(buffer)` would copy
 * them, and both copies (10 MB for a CJK face) would wait for a full collection to be freed.
 */
function ownBytes(file: Buffer): Uint8Array {
  return new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
}

/** Reads `length` bytes at `offset` of an open file. */
function readAt(fd: number, offset: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, bytes, done, length - done, offset + done);
    if (n === 0) throw new Error(`font file ended at ${offset + done}`);
    done += n;
  }
  return bytes;
}

/** The code points a font file maps, reading only its table directory and `cmap` (a few KB of 10 MB). */
export function fontFileCoverage(path: string): CodePointRanges {
  const fd = openSync(path, "r");
  try {
    const header = readAt(fd, 0, 12);
    const tables = new DataView(header.buffer).getUint16(4);
    const cmap = findTable(readAt(fd, 0, directoryLength(tables)), "cmap");
    if (!cmap) throw new Error(`${path} has no cmap table`);
    return cmapCoverage(readAt(fd, cmap.offset, cmap.length));
  } finally {
    closeSync(fd);
  }
}

let deferredSet: FontSet | undefined;

/**
 * The shipped set with every family deferred (FontSet.deferred): what each family covers is read
 * from the files' `cmap` tables (a few KB a face, for all 291), and a family's bytes are read
 * only when a render first needs it, then handed to the engine, which copies them into its heap. A
 * render thread that only ever draws Latin text in one family holds a few MB of fonts instead of 116.
 */
export function loadDeferredFontSet(): FontSet {
  deferredSet ??= readDeferredFontSet();
  return deferredSet;
}

function readDeferredFontSet(): FontSet {
  const byFamily = new Map<string, ManifestFace[]>();
  for (const face of FONT_FACES) byFamily.set(face.family, [...(byFamily.get(face.family) ?? []), face]);
  const deferred: DeferredFontFamily[] = [...byFamily].map(([family, faces]) => {
    const coverages = faces.map((face) => fontFileCoverage(fontFilePath(face)));
    const first = coverages[0] ?? new Uint32Array(0);
    return {
      family,
      anyFace: coverages.reduce(unionRanges, first),
      everyFace: coverages.reduce(intersectRanges, first),
      load: () =>
        faces.map((face) => ({
          family: face.family,
          weight: face.weight,
          style: face.style,
          bytes: ownBytes(readFileSync(fontFilePath(face))),
        })),
    };
  });
  return { faces: [], deferred, fallback: [...FALLBACK_FAMILIES], companions: { ...FONT_COMPANIONS } };
}
