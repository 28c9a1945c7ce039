import type { SlotValue, TemplateDocumentT } from "../../domain/document.ts";
import type { MeasuredWarning } from "../../ports/render-measurer.ts";
import type { OutputFormat, RenderWarningView } from "../../ports/render-store.ts";
import type { S3BlobStoreConfig } from "../s3/blob-store.ts";

/** Main thread -> worker. Ids, the pinned document and the values: never image bytes from the request. */
export interface RenderTask {
  taskId: number;
  /** Whose render it is: its uploaded fonts and its `asset://` images are the only ones it can use. */
  accountId: string;
  /**
   * The pinned template version, e.g. `tpl_…@3`. Published versions never change, so a worker keeps
   * the documents it was sent under this key and the pool sends each one to a worker only once.
   */
  documentKey: string;
  /** Absent when this worker already holds `documentKey` (see worker-pool.ts). */
  document?: TemplateDocumentT;
  /** The worker drops the documents it holds before this task (the pool's bound was reached). */
  forgetDocuments?: true;
  frame: string;
  /**
   * Set for format `pdf`: the frames drawn, one page each in order, the frame pixels per inch, and
   * when the render was accepted (ISO; the document's creation date).
   */
  pdf?: { frames: string[]; dpi: number; createdAt: string };
  values: Record<string, SlotValue>;
  scale: number;
  format: OutputFormat;
  /** Draw the frame's motion (every gif and mp4, an animated webp): renderer.renderAnimation. */
  animated?: true;
  quality: number | null;
  /** PNG encoder effort `size` (NodeRenderOptions.pngOptimize); absent: `speed`. */
  optimize?: "size";
  /**
   * Sent while the worker still had another task: work is backing up, so the worker should free its
   * engine for the next draw as soon as this one is drawn (NodeRenderOptions.releaseEngineAfterDraw).
   */
  queuedBehind?: true;
  /**
   * Someone waits for this render (a wait-mode request, an image URL): the pool prefers a render
   * thread at normal priority for it, and a background thread for the rest (thread-priority.ts).
   */
  interactive?: boolean;
  /** Blob key the worker writes the output to (derived from the render id, so a re-run overwrites it). */
  outputKey: string;
  /**
   * Preflight: the render is drawn as it would be and its warnings answered (`measured`), but nothing
   * is encoded or stored (`outputKey` unused).
   */
  measureOnly?: true;
}

/**
 * Main thread -> worker: an editor image (POST /v1/editor/prepare-image), the account's image bytes
 * fitted to a device box as straight RGBA with the renderers' own pipeline. Run on a render thread,
 * placed by the account's share of render time like a render, so that a heavy account's decodes
 * queue behind its own work (and its background thread's one-at-a-time native work).
 */
export interface PrepareImageTask {
  taskId: number;
  kind: "prepare-image";
  accountId: string;
  bytes: Uint8Array;
  target: {
    width: number;
    height: number;
    fit: "cover" | "contain" | "fill";
    focal: { x: number; y: number };
  };
  /** The source as the request named it (for the error's message). */
  src: string;
  /**
   * The directory the fitted image is written to (editor-image-files.ts): the answer is streamed
   * from there as its client reads, never handed to the API's thread whole.
   */
  dir: string;
}

/**
 * Worker -> main thread: the fitted image, as a file of width x height x 4 bytes of straight RGBA
 * that the receiver opens, unlinks and streams (editor-image-files.ts), or why it could not be made.
 */
export type PrepareImageResult =
  | { taskId: number; ok: true; width: number; height: number; file: string; upscaled: boolean }
  | { taskId: number; ok: false; code: "image_invalid" | "internal_error"; message: string };

/** What a caller is told of a fault on our side: never its details, which may hold paths. */
export const RENDER_FAULT_MESSAGE = "The render failed on our side.";

/** A task that ended with its output stored. */
export interface RenderTaskSuccess {
  taskId: number;
  ok: true;
  byteSize: number;
  contentType: string;
  width: number;
  height: number;
  warnings: RenderWarningView[];
  /** Set for a `measureOnly` task (nothing was stored): every warning of the draw. */
  measured?: MeasuredWarning[];
  /**
   * Milliseconds on the render thread: drawing (images in, layout, raster; with the encode for a
   * PDF, whose pages are encoded as they are drawn), encoding, and writing the output.
   */
  drawMs?: number;
  encodeMs?: number;
  storeMs?: number;
}

export interface RenderTaskFailure {
  taskId: number;
  ok: false;
  code: "image_fetch_failed" | "image_invalid" | "internal_error";
  message: string;
  /**
   * The render itself worked but its output could not be stored (object store or disk away for a
   * moment): the job should run again later rather than fail the render now.
   */
  retryable?: true;
}

/** Worker -> main thread when a task ends. */
export type RenderTaskResult = RenderTaskSuccess | RenderTaskFailure;

/**
 * What the pool resolves a task with. A success also brings the lowercase hex SHA-256 of its output
 * bytes, posted with its result (null for a measurement, which has no output).
 */
export type RenderTaskOutcome = (RenderTaskSuccess & { sha256: string | null }) | RenderTaskFailure;

/**
 * Where a render thread finds asset rows (image and font lookups) and blobs: the embedded default's
 * SQLite file and blob directory, or, scaled out, PostgreSQL and S3 (or a shared blob directory).
 */
export interface RenderWorkerData {
  databaseFile?: string;
  postgresUrl?: string;
  blobRoot?: string;
  s3?: S3BlobStoreConfig;
  outboundAllowlist: string[];
  /** Cache sizes for the thread's renderer, from the memory plan (main/memory-plan.ts); defaults without. */
  memory?: { preparedImageBytes: number; composedImageBytes: number };
  /** Set for a background render thread: the nice value it lowers its own priority to (thread-priority.ts). */
  nice?: number;
  /** Tests only (ServeTestHooks): documents with this key break the thread's engine as a trap does. */
  trapOnDocumentKey?: string;
}

export type WorkerMessage =
  | { type: "ready" }
  /** `sha256`: the stored output's hash (absent for a failure or a measurement). */
  | { type: "result"; result: RenderTaskResult; sha256?: string }
  | { type: "prepared"; result: PrepareImageResult };
