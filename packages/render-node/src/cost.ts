import {
  CANVASKIT_HEAP_BASE_BYTES,
  CANVASKIT_HEAP_LIMIT_BYTES,
  estimateFrameCost,
  type FrameCost,
  type SlotValues,
  type TemplateDocumentT,
} from "@pictor/engine";
import type { AnimatedFormat } from "./animated-output.ts";

export { ANIMATED_IMAGE_PIXEL_BUDGET } from "./animated-output.ts";

import type { OutputFormat } from "./encode.ts";
import { DEFAULT_IMAGE_LIMITS } from "./image-limits.ts";

/**
 * The peak memory of a render on a render thread, estimated before it is accepted: the engine's
 * estimate of drawing each frame (packages/engine/src/render/cost.ts: surface, offscreen rasters,
 * prepared images, pixel copies) and what this package does around the drawing. Pure and cheap: the
 * server runs it on its API thread for every render it accepts. Upper bounds, each:
 *
 * - Preparing images (renderer.ts, prepare-image.ts), before the drawing: the source's bytes and
 *   libvips' decode of it, `PREPARE_BASE_BYTES` plus `PREPARE_BYTES_PER_SOURCE_PIXEL` a source pixel
 *   (a 49-megapixel JPEG or PNG fitted to a small box took 40-44 MB, a 1.7-megapixel one 8 MB); up
 *   to four at once (libuv's thread pool), the largest four counted. A source of unknown size (a URL)
 *   is counted at the largest one accepted (50 megapixels).
 * - Around the drawing, per device pixel of the frame: its copy out of the engine when the thread has
 *   renders waiting (`releaseEngineAfterDraw`, 4 bytes) and the encoder (PNG: the output, at most the
 *   raw pixels and zlib's framing, 4; JPEG 3; WebP its ARGB picture, YUV planes and output, 8).
 * - A PDF page (pdf.ts): its RGB pixels, the deflated stream's chunks and their concatenation (9 bytes
 *   a pixel while the page is added); then every page's compressed image, held by pdf-lib until the
 *   document is written and copied once more when it is (3 bytes a pixel each, twice: a page of
 *   noise does not compress). Pages are drawn one at a time (the pixels of one are released before
 *   the next is drawn), so the drawing counts once, for the costliest page.
 */
export const COPY_BYTES_PER_PIXEL = 4;
/** What a frame's rasters may take of CanvasKit's heap: its 2 GiB less what it holds before drawing. */
export const DRAWING_HEAP_BYTES = CANVASKIT_HEAP_LIMIT_BYTES - CANVASKIT_HEAP_BASE_BYTES;
export const ENCODE_BYTES_PER_PIXEL: Readonly<Record<OutputFormat, number>> = { png: 4, jpeg: 3, webp: 8 };
export const PDF_PAGE_BYTES_PER_PIXEL = 9;
export const PDF_HELD_BYTES_PER_PIXEL = 3;
export const ANIMATION_COPY_BYTES_PER_PIXEL = 4;
export const ANIMATED_IMAGE_HELD_BYTES_PER_PIXEL = 8;
export const PREPARE_BASE_BYTES = 8 * 1024 * 1024;
export const PREPARE_BYTES_PER_SOURCE_PIXEL = 1.5;
/** Images prepared at once: libuv's default thread pool runs sharp's work four at a time. */
export const PREPARE_CONCURRENCY = 4;

export interface RenderCostOptions {
  format: OutputFormat | "pdf" | AnimatedFormat;
  /** An animated render's frame count (duration x fps); absent for stills and PDFs. */
  animationFrames?: number;
  /** The frames drawn: one for an image, a PDF's pages in order. Default: the document's first frame. */
  frames?: readonly string[];
  scale?: number;
  values?: SlotValues;
  /**
   * The pixels of an image source, when the host knows them (an asset's recorded size); undefined:
   * unknown, counted at the largest accepted.
   */
  sourcePixels?: (src: string) => number | undefined;
}

/** One frame (page) of a render: the engine's estimate of its drawing, and its peak with the rest. */
export interface FramePeak {
  frame: FrameCost;
  /** Preparing its images: their fitted pixels and the decodes running at once. */
  prepareBytes: number;
  /** Drawing and encoding it. */
  drawBytes: number;
  /** The larger of the two. */
  bytes: number;
}

export interface RenderCost {
  /** Peak bytes the render may hold on its render thread, beyond the thread's own baseline. */
  bytes: number;
  /** Each frame drawn (a PDF's pages, in order). */
  frames: FramePeak[];
  /** The frame whose own peak is the largest (the one the render's peak is made of). */
  costliest: FramePeak;
  /**
   * Bytes held across a PDF's pages (their compressed images, and their copy when written) or an
   * animated GIF's or WebP's frames; 0 for an image or an MP4.
   */
  heldBytes: number;
  /** The first frame whose rasters CanvasKit's heap cannot hold at all, or null. */
  unfit: FrameCost | null;
}

/** Estimates a render of a validated document (see the module comment for what is counted). */
export function estimateRenderCost(document: TemplateDocumentT, options: RenderCostOptions): RenderCost {
  const names = options.frames ?? [document.frames[0]?.name ?? ""];
  const animated =
    options.animationFrames !== undefined || options.format === "gif" || options.format === "mp4";
  const perPixel =
    options.format === "pdf"
      ? PDF_PAGE_BYTES_PER_PIXEL
      : animated
        ? ANIMATION_COPY_BYTES_PER_PIXEL
        : COPY_BYTES_PER_PIXEL + ENCODE_BYTES_PER_PIXEL[options.format as OutputFormat];
  const sourcePixels = (src: string) => options.sourcePixels?.(src) ?? DEFAULT_IMAGE_LIMITS.maxPixels;
  const frames = names.map((name): FramePeak => {
    const frame = estimateFrameCost(document, { frame: name, scale: options.scale, values: options.values });
    const decodes = [...new Set(frame.images.map((image) => image.src))]
      .map((src) => PREPARE_BASE_BYTES + PREPARE_BYTES_PER_SOURCE_PIXEL * sourcePixels(src))
      .sort((a, b) => b - a)
      .slice(0, PREPARE_CONCURRENCY);
    const prepareBytes = frame.imageBytes + decodes.reduce((sum, bytes) => sum + bytes, 0);
    const drawBytes = frame.bytes + perPixel * frame.width * frame.height;
    return { frame, prepareBytes, drawBytes, bytes: Math.max(prepareBytes, drawBytes) };
  });
  const costliest = frames.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const stacked = animated && options.format !== "mp4" ? (options.animationFrames ?? 1) : 0;
  const heldBytes =
    options.format === "pdf"
      ? frames.reduce((sum, f) => sum + 2 * PDF_HELD_BYTES_PER_PIXEL * f.frame.width * f.frame.height, 0)
      : stacked * ANIMATED_IMAGE_HELD_BYTES_PER_PIXEL * costliest.frame.width * costliest.frame.height;
  return {
    bytes: costliest.bytes + heldBytes,
    frames,
    costliest,
    heldBytes,
    unfit: frames.find((f) => !f.frame.fitsHeap)?.frame ?? null,
  };
}
