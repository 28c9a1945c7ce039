// Reads PDFs with poppler-utils (pdfinfo, pdftoppm), as a print shop's tools would. Without them the
// PDF tests are skipped with a notice; under CI=true they fail instead (.ci/run installs them).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";

const run = promisify(execFile);

export const havePoppler = existsSync("/usr/bin/pdfinfo") && existsSync("/usr/bin/pdftoppm");
export const popplerRequired = havePoppler || process.env.CI === "true";
if (!havePoppler) {
  console.warn(
    "[skipped] PDF tests: poppler-utils (pdfinfo, pdftoppm) not installed; apt-get install poppler-utils. Under CI=true this is a failure.",
  );
}

export interface PdfInfo {
  pages: number;
  title: string | null;
  creator: string | null;
  producer: string | null;
  creationDate: string | null;
  /** Size of each page in points, as pdfinfo prints it. */
  pageSizes: { width: number; height: number }[];
}

/** `pdfinfo -f 1 -l N` of the bytes: page count, title, creator and every page's size in points. */
export async function pdfInfo(pdf: Uint8Array): Promise<PdfInfo> {
  return withFile(pdf, async (file) => {
    const first = await run("pdfinfo", [file]);
    const pages = Number(field(first.stdout, "Pages"));
    const all = await run("pdfinfo", ["-f", "1", "-l", String(pages), file]);
    const pageSizes = [...all.stdout.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m) => ({
      width: Number(m[1]),
      height: Number(m[2]),
    }));
    return {
      pages,
      title: field(first.stdout, "Title"),
      creator: field(first.stdout, "Creator"),
      producer: field(first.stdout, "Producer"),
      creationDate: field(first.stdout, "CreationDate"),
      pageSizes,
    };
  });
}

export interface Raster {
  width: number;
  height: number;
  /** RGBA, straight alpha (every pixel opaque: paper). */
  rgba: Buffer;
}

/** Every page rasterised by `pdftoppm -r dpi` as RGBA, in page order. */
export async function rasterisePages(pdf: Uint8Array, dpi: number): Promise<Raster[]> {
  return withFile(pdf, async (file, dir) => {
    await run("pdftoppm", ["-r", String(dpi), "-png", file, join(dir, "page")]);
    const names = (await readdir(dir)).filter((n) => n.startsWith("page")).sort();
    return Promise.all(names.map(async (n) => decodeRgba(await readFile(join(dir, n)))));
  });
}

/** Decoded RGBA of an image file's bytes (PNG, JPEG…): what a viewer shows. */
export async function decodeRgba(bytes: Uint8Array): Promise<Raster> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgba: data };
}

/** Bytes that differ between two rasters of the same size (0: identical pixels). */
export function differingBytes(a: Raster, b: Raster): number {
  if (a.width !== b.width || a.height !== b.height) return Number.POSITIVE_INFINITY;
  let n = 0;
  for (let i = 0; i < a.rgba.length; i++) if (a.rgba[i] !== b.rgba[i]) n++;
  return n;
}

/** The largest difference of any channel of any pixel. */
export function maxChannelDelta(a: Raster, b: Raster): number {
  let max = 0;
  for (let i = 0; i < a.rgba.length; i++) max = Math.max(max, Math.abs((a.rgba[i] ?? 0) - (b.rgba[i] ?? 0)));
  return max;
}

/** `pdfimages -list`: each embedded image's encoding (`image` for Flate, `jpeg` for DCT) and size. */
export async function pdfImages(
  pdf: Uint8Array,
): Promise<{ page: number; width: number; height: number; enc: string }[]> {
  return withFile(pdf, async (file) => {
    const { stdout } = await run("pdfimages", ["-list", file]);
    return stdout
      .split("\n")
      .slice(2)
      .filter((l) => l.trim() !== "")
      .map((l) => l.trim().split(/\s+/))
      .map((c) => ({ page: Number(c[0]), width: Number(c[3]), height: Number(c[4]), enc: String(c[8]) }));
  });
}

function field(text: string, name: string): string | null {
  const m = new RegExp(`^${name}:\\s*(.*)$`, "m").exec(text);
  return m ? (m[1] ?? "").trim() : null;
}

async function withFile<T>(pdf: Uint8Array, use: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "pictor-pdf-"));
  try {
    const file = join(dir, "doc.pdf");
    await writeFile(file, pdf);
    return await use(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
