import type { DrawnText, FramePrintT, PrintGeometry } from "@pictor/engine";
import type { PDFDocument, PDFFont, PDFPage } from "pdf-lib";

/**
 * The PDF pages of rendered frames, with pdf-lib, and nothing of Node: the render workers
 * (render-node's pdf.ts gives it sharp and zlib) and the editor's export (the browser's own
 * compression) build the very same pages.
 */

/** Engine pixels: RGBA8888, premultiplied unless every pixel is opaque. */
export interface PdfPixels {
  width: number;
  height: number;
  pixels: Uint8Array;
  opaque: boolean;
}

/** What a page's picture needs encoded, from the platform the PDF is made on. */
export interface PdfCodec {
  /** RGB bytes of the pixels: opaque ones lose their alpha, translucent ones are shown over white. */
  opaqueRgb(frame: PdfPixels): Promise<Uint8Array>;
  /** zlib (RFC 1950) compression, as a FlateDecode stream holds it. */
  flate(bytes: Uint8Array, level: number): Promise<Uint8Array>;
  /** The pixels as a JPEG of this quality (1 to 100). */
  jpeg(frame: PdfPixels, quality: number): Promise<Uint8Array>;
}

/**
 * Frame pixels per inch when a request names no density: CSS pixels, so 1 px = 0.75 pt and a
 * 1123x794 frame is an A4 landscape page (297 x 210 mm).
 */
export const DEFAULT_PDF_DPI = 96;

/** Points (1/72 inch) of `pixels` frame pixels at `dpi` frame pixels per inch. */
export function pixelsToPoints(pixels: number, dpi: number = DEFAULT_PDF_DPI): number {
  return (pixels * 72) / dpi;
}

export interface PdfMetadata {
  title: string;
  author?: string;
  /** Written as the document's creation and modification date. */
  createdAt: Date;
}

export interface PdfPageOptions {
  /** Size in points of the area the pixels fill: the page, or the trimmed page plus its bleed. */
  widthPt: number;
  heightPt: number;
  /**
   * Print geometry (a frame's `print`): `bleedPt` of the pixels on every side lie outside the trim
   * box (the page proper); crop marks are drawn in a `slugPt` margin round them, which the media box
   * adds. Both 0 by default: the page is the pixels.
   */
  bleedPt?: number;
  slugPt?: number;
  /** Words to lay over the picture as invisible, selectable text, in the pixels' coordinates. */
  texts?: readonly DrawnText[];
  /** Absent: the pixels are stored losslessly (Flate). 1 to 100: as a JPEG of that quality. */
  quality?: number;
  /** zlib level of a lossless page, default 1 (as PNG outputs: see EncodeOptions). */
  compressionLevel?: number;
}

/**
 * Builds a PDF from rendered frames, one page each, with pdf-lib. Each page is the frame's pixels
 * as one image that fills the page: RGB, losslessly (Flate) or as a JPEG, so a page rasterised at
 * the pixels' own resolution gives back exactly those pixels. Paper has no alpha: translucent areas
 * are shown over white, as a JPEG output shows them.
 */
/**
 * pdf-lib, loaded with the first PDF: importing it costs a thread about 20 MB of memory, and every
 * render thread and API process imports this module.
 */
const pdfLib = () => import("pdf-lib");

export class PdfAssembler {
  readonly #doc: Promise<PDFDocument>;
  #font: PDFFont | undefined;
  #pages = 0;

  readonly #codec: PdfCodec;

  constructor(metadata: PdfMetadata, codec: PdfCodec) {
    this.#codec = codec;
    this.#doc = pdfLib().then(async ({ PDFDocument }) => {
      const doc = await PDFDocument.create();
      doc.setTitle(metadata.title);
      if (metadata.author !== undefined) doc.setAuthor(metadata.author);
      doc.setCreator("Pictor");
      doc.setProducer("Pictor (pdf-lib)");
      doc.setCreationDate(metadata.createdAt);
      doc.setModificationDate(metadata.createdAt);
      return doc;
    });
  }

  get pageCount(): number {
    return this.#pages;
  }

  /**
   * Adds a page showing `frame`. The pixels are read before the promise resolves and not kept, so
   * the caller may reuse their memory once it has.
   */
  async addPage(frame: PdfPixels, options: PdfPageOptions): Promise<void> {
    const doc = await this.#doc;
    // A millionth of a point less than the frame's size: a rasteriser that sizes its bitmap as
    // ceil(points x dpi / 72) (pdftoppm) would otherwise add a column of paper when the product
    // comes out 1e-13 above a whole number (a 301 px frame at 150 dpi: 144.48 pt, 603 px at 300 dpi).
    const slug = options.slugPt ?? 0;
    const bleed = options.bleedPt ?? 0;
    const art: [number, number] = [options.widthPt - PAGE_TRIM_PT, options.heightPt - PAGE_TRIM_PT];
    const pageSize: [number, number] = [art[0] + 2 * slug, art[1] + 2 * slug];
    const placed = placement(frame, art);
    const size = { ...placed, x: placed.x + slug, y: placed.y + slug };
    if (options.quality !== undefined) {
      const image = await doc.embedJpg(await this.#codec.jpeg(frame, options.quality));
      const page = doc.addPage(pageSize);
      page.drawImage(image, size);
      await this.#finishPage(page, frame, options, art, slug, bleed);
    } else {
      const rgb = await this.#codec.opaqueRgb(frame);
      const compressed = await this.#codec.flate(rgb, options.compressionLevel ?? 1);
      const image = doc.context.register(
        doc.context.stream(compressed, {
          Type: "XObject",
          Subtype: "Image",
          Width: frame.width,
          Height: frame.height,
          ColorSpace: "DeviceRGB",
          BitsPerComponent: 8,
          Filter: "FlateDecode",
        }),
      );
      const { degrees, drawImage, popGraphicsState, pushGraphicsState } = await pdfLib();
      const page = doc.addPage(pageSize);
      const name = page.node.newXObject("Image", image);
      const upright = { rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) };
      page.pushOperators(
        pushGraphicsState(),
        ...drawImage(name, { ...size, ...upright }),
        popGraphicsState(),
      );
      await this.#finishPage(page, frame, options, art, slug, bleed);
    }
    this.#pages += 1;
  }

  /** Print boxes, crop marks and the invisible text of a page whose picture is drawn. */
  async #finishPage(
    page: PDFPage,
    frame: PdfPixels,
    options: PdfPageOptions,
    [artWidth, artHeight]: [number, number],
    slug: number,
    bleed: number,
  ): Promise<void> {
    if (slug > 0 || bleed > 0) {
      page.setBleedBox(slug, slug, artWidth, artHeight);
      page.setTrimBox(slug + bleed, slug + bleed, artWidth - 2 * bleed, artHeight - 2 * bleed);
    }
    if (slug > 0) await drawCropMarks(page, slug, bleed, artWidth, artHeight);
    const texts = options.texts ?? [];
    if (texts.length === 0) return;
    const doc = await this.#doc;
    const lib = await pdfLib();
    this.#font ??= await doc.embedFont(lib.StandardFonts.Helvetica);
    const font = this.#font;
    const perPixel = artWidth / frame.width;
    const fontName = page.node.newFontDictionary("F", font.ref);
    const operators = [lib.beginText(), lib.setTextRenderingMode(lib.TextRenderingMode.Invisible)];
    for (const text of texts) {
      const lines = text.text
        .split("\n")
        .map((line) => encodable(font, line))
        .filter((l) => l.trim() !== "");
      if (lines.length === 0) continue;
      // Sized to the box: the font size, or smaller when the lines would not fit its height, and
      // squeezed across to the box's width, so selecting the words covers where they are drawn.
      const size = Math.max(1, Math.min(text.size, text.height / lines.length) * perPixel);
      operators.push(lib.setFontAndSize(fontName, size));
      lines.forEach((line, i) => {
        const width = font.widthOfTextAtSize(line, size);
        const room = text.width * perPixel;
        const squeeze = width > room && width > 0 ? (100 * room) / width : 100;
        const x = slug + text.x * perPixel;
        const baseline = page.getHeight() - slug - text.y * perPixel - size * (i + 0.85);
        operators.push(
          lib.setCharacterSqueeze(squeeze),
          lib.setTextMatrix(1, 0, 0, 1, x, baseline),
          lib.showText(font.encodeText(line)),
        );
      });
    }
    operators.push(lib.endText());
    page.pushOperators(...operators);
  }

  /** The document's bytes. */
  async save(): Promise<Uint8Array> {
    const doc = await this.#doc;
    if (this.#pages === 0) throw new Error("a PDF needs at least one page");
    return doc.save({ useObjectStreams: true, addDefaultPage: false });
  }
}

/**
 * Where the image goes: the whole page, inset by 1/128 of an image pixel on every side. Poppler
 * (pdftoppm, and the viewers built on it) covers an image whose edge falls exactly on a device pixel
 * boundary with one pixel more, or (after a rounding error of 1e-14) starts it a pixel early, and then
 * resamples it, which blurs or shifts every edge of a page rasterised at the pixels' own resolution.
 * With the edges just inside the pixel boundaries it copies the pixels one for one. No renderer can
 * show the sliver (the paper is white).
 */
function placement(frame: PdfPixels, [widthPt, heightPt]: [number, number]) {
  const insetX = (widthPt * INSET_PX) / frame.width;
  const insetY = (heightPt * INSET_PX) / frame.height;
  return { x: insetX, y: insetY, width: widthPt - 2 * insetX, height: heightPt - 2 * insetY };
}

const INSET_PX = 1 / 128;
const PAGE_TRIM_PT = 1e-6;

/**
 * The characters of `line` the standard font can write (WinAnsi: Latin scripts); others become
 * spaces, so `pdftotext` still reads the Latin words of a mixed line.
 */
function encodable(font: PDFFont, line: string): string {
  const set = new Set(font.getCharacterSet());
  return [...line].map((ch) => (set.has(ch.codePointAt(0) ?? 0) ? ch : " ")).join("");
}

/** Hairline marks at the trim corners, in the slug outside the bleed, as printers expect. */
async function drawCropMarks(page: PDFPage, slug: number, bleed: number, width: number, height: number) {
  const { rgb } = await pdfLib();
  const trim = {
    left: slug + bleed,
    bottom: slug + bleed,
    right: slug + width - bleed,
    top: slug + height - bleed,
  };
  const mark = (x1: number, y1: number, x2: number, y2: number) =>
    page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.25, color: rgb(0, 0, 0) });
  const outer = page.getWidth();
  const outerY = page.getHeight();
  const gap = 2;
  for (const y of [trim.bottom, trim.top]) {
    mark(0, y, slug - gap, y);
    mark(outer - slug + gap, y, outer, y);
  }
  for (const x of [trim.left, trim.right]) {
    mark(x, 0, x, slug - gap);
    mark(x, outerY - slug + gap, x, outerY);
  }
}

/**
 * The page of a frame: `dpi` frame pixels an inch, unless the frame declares its print page, which
 * it then has whatever the density (with its bleed and the slug of its crop marks). `printGeometry`
 * is the engine's (passed in: the editor has it from the engine bundle it loads, not from an import).
 */
export function framePageOptions(
  frame: { width: number; height: number; print?: FramePrintT },
  dpi: number,
  printGeometry: (print: FramePrintT) => PrintGeometry,
): Pick<PdfPageOptions, "widthPt" | "heightPt" | "bleedPt" | "slugPt"> {
  if (frame.print === undefined)
    return { widthPt: pixelsToPoints(frame.width, dpi), heightPt: pixelsToPoints(frame.height, dpi) };
  const page = printGeometry(frame.print);
  return {
    widthPt: page.trimWidth + 2 * page.bleed,
    heightPt: page.trimHeight + 2 * page.bleed,
    bleedPt: page.bleed,
    slugPt: page.slug,
  };
}
