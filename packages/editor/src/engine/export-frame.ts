import type { PdfCodec, PdfPixels } from "@pictor/render-node/pdf-assembler";
import type { SlotValues, TemplateDocumentT } from "./engine-types.ts";
import type { EditorEngine, FrameRender } from "./load-engine.ts";

export type ExportFormat = "png" | "jpeg" | "webp" | "pdf";

/** A frame drawn by the engine, as a file to download. */
export interface ExportedFile {
  blob: Blob;
  name: string;
}

/** Straight RGBA of engine pixels (premultiplied unless opaque), for a canvas. */
function straight(frame: PdfPixels): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(frame.pixels.length);
  out.set(frame.pixels);
  if (frame.opaque) return out;
  for (let i = 0; i < out.length; i += 4) {
    const a = out[i + 3] ?? 0;
    if (a === 0 || a === 255) continue;
    for (let c = 0; c < 3; c++) out[i + c] = Math.round(((out[i + c] ?? 0) * 255) / a);
  }
  return out;
}

async function encodeInBrowser(frame: PdfPixels, type: string, quality?: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(frame.width, frame.height);
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("this browser cannot encode images");
  ctx.putImageData(new ImageData(straight(frame), frame.width, frame.height), 0, 0);
  return canvas.convertToBlob({ type, ...(quality === undefined ? {} : { quality }) });
}

/**
 * The browser's half of a PDF page (render-node's pdf-assembler.ts builds the page itself, as the
 * API's workers do): RGB over white, zlib by the browser's CompressionStream.
 */
const BROWSER_CODEC: PdfCodec = {
  async opaqueRgb(frame) {
    const { width, height, pixels, opaque } = frame;
    const rgb = new Uint8Array(width * height * 3);
    for (let p = 0, q = 0; p < pixels.length; p += 4, q += 3) {
      // Premultiplied over white: colour + white x (1 - alpha).
      const under = opaque ? 0 : 255 - (pixels[p + 3] ?? 0);
      rgb[q] = (pixels[p] ?? 0) + under;
      rgb[q + 1] = (pixels[p + 1] ?? 0) + under;
      rgb[q + 2] = (pixels[p + 2] ?? 0) + under;
    }
    return rgb;
  },
  async flate(bytes) {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
      .stream()
      .pipeThrough(new CompressionStream("deflate"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  },
  async jpeg(frame, quality) {
    return new Uint8Array(await (await encodeInBrowser(frame, "image/jpeg", quality / 100)).arrayBuffer());
  },
};

const TYPES = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" } as const;

/**
 * A frame of the document as the editor draws it (the API's engine, fonts and prepared images) in
 * a file: PNG (lossless), JPEG or WebP (quality 90, the API's default) from the browser's encoder,
 * or a one-page PDF built exactly as the API builds its pages (96 dpi, or the frame's print page,
 * lossless picture, the words as invisible text), so the page rasterised equals the API's.
 */
export async function exportFrame(
  engine: EditorEngine,
  doc: TemplateDocumentT,
  frameName: string,
  format: ExportFormat,
  scale: number,
  values?: SlotValues,
): Promise<ExportedFile> {
  const frame = doc.frames.find((f) => f.name === frameName);
  if (!frame) throw new Error(`no frame ${frameName}`);
  const drawn: FrameRender = await engine.render(doc, {
    frame: frameName,
    scale,
    ...(values ? { values } : {}),
    collectText: format === "pdf",
  });
  if (drawn.imageErrors.length > 0) throw new Error(drawn.imageErrors.join("\n"));
  const base = `${doc.key}-${frameName}${scale === 1 ? "" : `@${scale}x`}`;
  if (format !== "pdf") {
    const blob = await encodeInBrowser(drawn, TYPES[format], format === "png" ? undefined : 0.9);
    return { blob, name: `${base}.${format === "jpeg" ? "jpg" : format}` };
  }
  const { DEFAULT_PDF_DPI, PdfAssembler, framePageOptions } = await import(
    "@pictor/render-node/pdf-assembler"
  );
  const pdf = new PdfAssembler(
    {
      title: frame.print?.title ?? doc.name,
      ...(frame.print?.author === undefined ? {} : { author: frame.print.author }),
      createdAt: new Date(),
    },
    BROWSER_CODEC,
  );
  await pdf.addPage(drawn, {
    ...framePageOptions(frame, DEFAULT_PDF_DPI, engine.module.printGeometry),
    texts: drawn.texts ?? [],
  });
  const bytes = await pdf.save();
  return {
    blob: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }),
    name: `${base}.pdf`,
  };
}
