import type { TemplateDocumentT } from "../../domain/document.ts";
import type { OutputFormat, RenderWarningView } from "../../ports/render-store.ts";
import type { S3BlobStoreConfig } from "../s3/blob-store.ts";

/** Main thread -> worker. Ids, the pinned document and the values: never image bytes from the request. */
export interface RenderTask {
  taskId: number;
  /** Whose uploaded fonts the document's family names resolve to; without it, shipped fonts only. */
  accountId?: string;
  document: TemplateDocumentT;
  frame: string;
  values: Record<string, string>;
  scale: number;
  format: OutputFormat;
  quality: number | null;
  /** Blob key the worker writes the output to (derived from the render id, so a re-run overwrites it). */
  outputKey: string;
}

export type RenderTaskResult =
  | {
      taskId: number;
      ok: true;
      byteSize: number;
      /** Lowercase hex SHA-256 of the output bytes (the asset records it; its ETag derives from it). */
      sha256: string;
      contentType: string;
      width: number;
      height: number;
      warnings: RenderWarningView[];
    }
  | {
      taskId: number;
      ok: false;
      code: "image_fetch_failed" | "image_invalid" | "internal_error";
      message: string;
    };

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
}

export type WorkerMessage = { type: "ready" } | { type: "result"; result: RenderTaskResult };
