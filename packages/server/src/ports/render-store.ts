import type { SlotValue, TemplateDocumentT } from "../domain/document.ts";
import type { AssetRecord } from "./asset-store.ts";
import type { OutboxEventInput } from "./webhook-outbox.ts";

export type RenderStatus = "queued" | "rendering" | "completed" | "failed";
export type OutputFormat = "png" | "jpeg" | "webp" | "pdf" | "gif" | "mp4";

/** An animated render's moments: duration x fps frames (GIF, MP4, or WebP asked for as animated). */
export interface RenderAnimation {
  frames: number;
  fps: number;
  /** Seconds. */
  duration: number;
}

export interface RenderWarningView {
  code: string;
  slot: string | null;
  message: string;
}

export interface RenderRecord {
  id: string;
  accountId: string;
  templateId: string;
  templateKey: string;
  templateVersion: number;
  /** The frame drawn; for a PDF, the first page's. */
  frame: string;
  /** A PDF's pages: the frames drawn, one page each, in order. Null for an image. */
  frames: string[] | null;
  /** A PDF's density, frame pixels per inch (page size = frame size / dpi inches). Null for an image. */
  dpi: number | null;
  scale: number;
  format: OutputFormat;
  /** Set for an animated render (every gif and mp4, a webp asked for as animated); absent or null: a still. */
  animation?: RenderAnimation | null;
  quality: number | null;
  /**
   * PNG encoder effort: `size` spends more CPU for fewer bytes of the same pixels. Absent: `speed`.
   * Fixed at acceptance, so a re-run of the job writes the same bytes.
   */
  optimize?: "size";
  /** Output size in pixels; for a PDF, the first page's image. */
  width: number;
  height: number;
  /** Slot values as the worker consumes them (image references already resolved to asset:// where owned). */
  values: Record<string, SlotValue>;
  metadata: Record<string, string>;
  tags: string[];
  webhookUrl: string | null;
  /**
   * The Idempotency-Key of the request that created it (stored, not read back). Lets a retry whose
   * first attempt died after acceptance find this render (`findByIdempotencyKey`).
   */
  idempotencyKey?: string | null;
  /** The X-Request-Id of the request that created it; its callback carries it. Absent: none known. */
  requestId?: string | null;
  status: RenderStatus;
  creditsCharged: number;
  creditsRefunded: number;
  error: { code: string; message: string } | null;
  warnings: RenderWarningView[];
  assetId: string | null;
  createdAt: string;
  completedAt: string | null;
}

export type AcceptOutcome = { accepted: true } | { accepted: false; balance: number };

/** What a worker needs: the render row plus the template version it pinned. */
export interface RenderJob {
  render: RenderRecord;
  document: TemplateDocumentT;
}

/**
 * The renders table is also the durable queue of the embedded default: a `queued` row is a job.
 * Each method is one unit of work (one transaction).
 */
export interface RenderStore {
  /**
   * Atomically: check the balance covers `render.creditsCharged`, append the charge, insert the
   * render as `queued` (or `rendering`, when its status says so: the queue starts it at once). Balance
   * never goes below zero, also across processes.
   */
  accept(render: RenderRecord): Promise<AcceptOutcome>;
  get(accountId: string, id: string): Promise<RenderRecord | null>;
  /** The account's renders among `ids`, in no particular order (unknown ids and other accounts' are left out): one round trip for a batch's rows. */
  getMany(accountId: string, ids: readonly string[]): Promise<RenderRecord[]>;
  /** The newest of the account's renders accepted under `idempotencyKey` at or after `since` (ISO). */
  findByIdempotencyKey(
    accountId: string,
    idempotencyKey: string,
    since: string,
  ): Promise<RenderRecord | null>;
  /** `queued` and `rendering` renders in acceptance order (restart recovery), with their accounts so the queue keeps its per-account fairness. */
  pending(): Promise<{ id: string; accountId: string }[]>;
  /**
   * Marks the render `rendering` and returns its job; null if it is no longer pending. `accepted`:
   * the record exactly as `accept` inserted it, when the caller still holds it, so the row need not be
   * read back (a store may ignore it); one accepted as `rendering` is not written again.
   */
  claim(id: string, accepted?: RenderRecord): Promise<RenderJob | null>;
  /**
   * Completes the render and records its output asset together, and its completion callback in the
   * webhook outbox when given (same transaction: a completed render with a webhook_url always has
   * its event, a failed one never). No-op if already finished. True when this call completed it,
   * false when it had already finished.
   */
  complete(
    id: string,
    result: {
      asset: AssetRecord;
      warnings: RenderWarningView[];
      at: string;
      callback?: OutboxEventInput;
      /**
       * The output's SHA-256 (lowercase hex), recorded with the asset in the same unit of work, as
       * for uploads, but it does not dedupe (identical renders are separate assets).
       */
      sha256?: string;
    },
  ): Promise<boolean>;
  /**
   * Fails the render and refunds its charge exactly once. No-op if already finished. True when this
   * call failed it, false when it had already finished.
   */
  failAndRefund(id: string, error: { code: string; message: string }, at: string): Promise<boolean>;
}
