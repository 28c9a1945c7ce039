import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { validateDocument } from "@pictor/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeRenderer, type NodeRenderer } from "../src/renderer.ts";
import { popplerRequired } from "./support/poppler.ts";

const run = promisify(execFile);
const certificateFile = resolve(import.meta.dirname, "../../../examples/templates/certificate.json");
const loadImage = (src: string) => readFile(resolve(dirname(certificateFile), src));

/** The certificate example, migrated by the renderer, with `print` on its frame. */
function certificate(print: Record<string, unknown>) {
  const document = JSON.parse(readFileSync(certificateFile, "utf8"));
  document.version = 3;
  document.frames[0].print = print;
  return document;
}

/** Runs a poppler tool on the PDF's bytes and returns its standard output. */
async function poppler(tool: string, args: string[], pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pictor-pdf-"));
  try {
    const file = join(dir, "in.pdf");
    await writeFile(file, pdf);
    return (await run(tool, [...args, file, ...(tool === "pdftotext" ? ["-"] : [])])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `pdfinfo -box` boxes of page 1: name -> [x0, y0, x1, y1] in points. */
function boxes(info: string): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const m of info.matchAll(/^(MediaBox|CropBox|BleedBox|TrimBox|ArtBox):\s+(.+)$/gm)) {
    out[m[1] as string] = (m[2] as string).trim().split(/\s+/).map(Number);
  }
  return out;
}

(popplerRequired ? describe : describe.skip)("print-grade PDF (a frame's print)", () => {
  let renderer: NodeRenderer;
  const values = JSON.parse(readFileSync(certificateFile, "utf8")).sample;
  beforeAll(async () => {
    renderer = await createNodeRenderer({ cacheBytes: 16 * 1024 * 1024 });
  });
  afterAll(() => renderer.dispose());

  it("gives an A4 landscape page whatever dpi the caller sends, with selectable words and metadata", async () => {
    const document = certificate({
      page: "A4",
      orientation: "landscape",
      title: "Certificate",
      author: "Pictor Academy",
    });
    for (const dpi of [72, 96, 300]) {
      const pdf = await renderer.renderPdf(document, {
        values: { ...values, recipient: "Ada Quintero" },
        dpi,
        loadImage,
      });
      const info = await poppler("pdfinfo", [], pdf.bytes);
      const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
      expect(Number(size?.[1])).toBeCloseTo(841.89, 1);
      expect(Number(size?.[2])).toBeCloseTo(595.28, 1);
      expect(info).toMatch(/^Title:\s+Certificate$/m);
      expect(info).toMatch(/^Author:\s+Pictor Academy$/m);
      const text = await poppler("pdftotext", [], pdf.bytes);
      expect(text).toContain("Ada Quintero");
      expect(text).toContain(values.course);
    }
  });

  it("with bleed, the media and bleed boxes exceed the trim box by the bleed; crop marks add a slug", async () => {
    const bleedMm = 3;
    const bleedPt = (bleedMm * 72) / 25.4;
    const plain = await renderer.renderPdf(
      certificate({ page: "A4", orientation: "landscape", bleed: bleedMm }),
      {
        values,
        loadImage,
      },
    );
    const box = boxes(await poppler("pdfinfo", ["-box"], plain.bytes));
    const [tx0 = 0, ty0 = 0, tx1 = 0, ty1 = 0] = box.TrimBox ?? [];
    const [mx0 = 0, my0 = 0, mx1 = 0, my1 = 0] = box.MediaBox ?? [];
    expect(tx1 - tx0).toBeCloseTo(841.89, 1);
    expect(ty1 - ty0).toBeCloseTo(595.28, 1);
    expect(mx1 - mx0 - (tx1 - tx0)).toBeCloseTo(2 * bleedPt, 1);
    expect(my1 - my0 - (ty1 - ty0)).toBeCloseTo(2 * bleedPt, 1);
    expect(tx0 - mx0).toBeCloseTo(bleedPt, 1);
    expect(box.BleedBox).toEqual(box.MediaBox);

    const marked = await renderer.renderPdf(
      certificate({ page: "A4", orientation: "landscape", bleed: bleedMm, crop_marks: true }),
      { values, loadImage },
    );
    const withMarks = boxes(await poppler("pdfinfo", ["-box"], marked.bytes));
    const [bx0 = 0, , bx1 = 0] = withMarks.BleedBox ?? [];
    const [wx0 = 0, , wx1 = 0] = withMarks.TrimBox ?? [];
    const [ox0 = 0, , ox1 = 0] = withMarks.MediaBox ?? [];
    expect(bx1 - bx0 - (wx1 - wx0)).toBeCloseTo(2 * bleedPt, 1);
    expect(ox1 - ox0 - (bx1 - bx0)).toBeCloseTo((2 * 6 * 72) / 25.4, 1);
  });

  it("with print.dpi the frame is the page at that density, checked at save; the picture's ppi is dpi x scale", async () => {
    // A6 portrait at 100 dpi: 105 x 148 mm = 413 x 583 px.
    const page = { page: "A6", dpi: 100 };
    const document = (width: number, height: number) => ({
      version: 3,
      key: "a6-card",
      name: "A6 card",
      slots: [],
      frames: [{ name: "card", width, height, background: "#1E3A8A", layers: [], print: page }],
    });
    expect(validateDocument(document(413, 583)).ok).toBe(true);
    const wrong = validateDocument(document(400, 583));
    expect(wrong.ok ? [] : wrong.errors).toEqual([
      {
        path: "frames[0].width",
        message: "must be 413 to print A6 at 100 dpi (print.dpi); it is 400",
      },
    ]);
    for (const [dpi, scale] of [
      [72, 1],
      [300, 2],
    ] as const) {
      const pdf = await renderer.renderPdf(document(413, 583), { dpi, scale, loadImage });
      const info = await poppler("pdfinfo", [], pdf.bytes);
      const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
      expect(Number(size?.[1])).toBeCloseTo((105 * 72) / 25.4, 1);
      expect(Number(size?.[2])).toBeCloseTo((148 * 72) / 25.4, 1);
      // pdfimages -list: page num type width height color comp bpc enc interp object ID x-ppi y-ppi ...
      const row = (await poppler("pdfimages", ["-list"], pdf.bytes)).trim().split("\n").at(-1) ?? "";
      const columns = row.trim().split(/\s+/);
      expect(columns.slice(3, 5).map(Number)).toEqual([413 * scale, 583 * scale]);
      expect(columns.slice(12, 14).map(Number)).toEqual([100 * scale, 100 * scale]);
    }
  });

  it("keeps a frame without print sized by dpi, as before", async () => {
    const document = JSON.parse(readFileSync(certificateFile, "utf8"));
    const pdf = await renderer.renderPdf(document, { values, dpi: 300, loadImage });
    const info = await poppler("pdfinfo", [], pdf.bytes);
    expect(info).toMatch(/Page size:\s+420\.9\d* x 297\.\d+ pts/);
  });
});
