import type { BatchRecord, StoredBatchState } from "../ports/batch-store.ts";
import type { RenderRecord } from "../ports/render-store.ts";
import type { Failure } from "./failure.ts";
import type { RenderRequest } from "./renders.ts";

/** At most 1,000 rows per batch (more is 413 payload_too_large). */
export const MAX_BATCH_ROWS = 1000;

export interface BatchRequest {
  webhook_url?: string;
  metadata?: Record<string, string>;
  /** Rows whose shape was already checked; a row that failed that check arrives as its Failure. */
  renders: (RenderRequest | Failure)[];
}

export type BatchRowOutcome = { index: number; render: RenderRecord } | { index: number; error: Failure };

export type BatchState = StoredBatchState | "interrupted";

/**
 * Accepting 1,000 rows takes well under a second (about 0.3 s measured); a batch still `accepting`
 * this long after it was created has lost its process (crash, kill, restart) and will not move again.
 */
export const INTERRUPTED_AFTER_MS = 5 * 60_000;

export function batchState(batch: Pick<BatchRecord, "state" | "createdAt">, now: Date): BatchState {
  if (batch.state === "accepting" && now.getTime() - Date.parse(batch.createdAt) >= INTERRUPTED_AFTER_MS) {
    return "interrupted";
  }
  return batch.state;
}

export function errorBody(failure: Failure): { code: string; message: string; [detail: string]: unknown } {
  return { code: failure.code, message: failure.message, ...failure.details };
}
