import type { OutputFormat } from "./render-store.ts";

/** How a render was asked for: a caller waiting for it, a 202 and a poll or callback, a batch row, an image URL. */
export type RenderMode = "wait" | "async" | "batch" | "image_url";

/** How long each part of a render took, in seconds, as far as this process saw it. */
export interface RenderPhases {
  /** From acceptance to a render thread taking it. */
  queueWait: number;
  /** Drawing on the render thread: images in, layout and raster (a PDF's page encodes too). */
  draw?: number;
  /** Encoding the drawn pixels (PNG, JPEG, WebP). */
  encode?: number;
  /** Writing the output to the blob store. */
  store?: number;
  /** From acceptance to its end. */
  total: number;
}

/**
 * What the application tells whoever counts its work (a Prometheus registry, or nothing). Every call
 * is cheap and synchronous; labels are bounded (formats, modes, error codes), never account ids.
 */
export interface RenderMetrics {
  accepted(format: OutputFormat, mode: RenderMode, credits: number): void;
  completed(format: OutputFormat, phases: RenderPhases): void;
  /** A failed render; its credits were refunded. */
  failed(format: OutputFormat, code: string, refundedCredits: number, phases: RenderPhases | null): void;
}

export interface OperationsMetrics extends RenderMetrics {
  /** One attempt to deliver a callback. */
  webhookAttempt(outcome: "delivered" | "retrying" | "failed", seconds: number): void;
  /** An on-demand image URL answered from the render cache, rendered for it, or collapsed onto another's render. */
  imageUrl(cache: "hit" | "miss" | "collapsed", bytes: number): void;
}

/** Counts nothing: for tests and tools that run renders without an operator watching. */
export const noMetrics: OperationsMetrics = {
  accepted() {},
  completed() {},
  failed() {},
  webhookAttempt() {},
  imageUrl() {},
};

/** What the queue and the outbox hold now, read when metrics are scraped. */
export interface BacklogStats {
  /** Renders accepted and not yet started, and the age in seconds of the oldest (0 when none). */
  queued(): Promise<{ count: number; oldestAgeSeconds: number }>;
  /** Callback events not yet delivered or given up. */
  outboxPending(): Promise<number>;
}

/** The deployment's recent render outcomes, for the operator's page. */
export interface EndedRenders {
  /** The renders that ended since `since` (epoch ms), among the `limit` accepted last. */
  endedSince(since: number, limit: number): Promise<EndedRender[]>;
}

export interface EndedRender {
  status: "completed" | "failed";
  /** The failure's code; null for a completed render. */
  errorCode: string | null;
  /** Accepted and ended, epoch ms. */
  createdAt: number;
  completedAt: number;
}
