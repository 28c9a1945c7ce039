import { createHash } from "node:crypto";
import type { BatchRecord, StoredBatchState } from "../ports/batch-store.ts";
import type { RenderRecord } from "../ports/render-store.ts";
import type { Failure } from "./failure.ts";
import type { RenderRequest } from "./renders.ts";

/** At most 1,000 rows per batch (more is 413 payload_too_large). */
export const MAX_BATCH_ROWS = 1000;

/**
 * The body limit of POST /v1/renders/batch, 10 MiB (more is 413
 * payload_too_large). Here rather than with the server options so that `pictor batch` can size its
 * requests by the same figure without importing the HTTP layer.
 */
export const BATCH_BODY_LIMIT = 10 * 1024 * 1024;

/** A batch row: a render request, and optionally the row's own idempotency key. */
export type BatchRowRequest = RenderRequest & { idempotency_key?: string };

export interface BatchRequest {
  webhook_url?: string;
  metadata?: Record<string, string>;
  /** Rows whose shape was already checked; a row that failed that check arrives as its Failure. */
  renders: (BatchRowRequest | Failure)[];
}

/**
 * `replayed`: the row's idempotency key named a render accepted earlier (by another request, or an
 * earlier row of this one) with the same row: that render, not charged again.
 */
export type BatchRowOutcome =
  | { index: number; render: RenderRecord; replayed?: true }
  | { index: number; error: Failure };

/**
 * Where a batch row's idempotency key is kept, in the account's idempotency keys and as its render's
 * `idempotencyKey`: prefixed with `batch-row ` so that it never meets an Idempotency-Key header (a
 * header key has no spaces). The same string as a header key and as a row key are two unrelated keys.
 */
export function batchRowKeyScope(key: string): string {
  return `batch-row ${key}`;
}

/**
 * What a row key is bound to: SHA-256 over the row's render request as it is accepted (the batch's
 * `webhook_url` and `metadata` merged in), in canonical JSON (object keys sorted), so the same row
 * re-sent, even with its fields in another order, matches, and any other row does not.
 */
export function batchRowFingerprint(request: RenderRequest): string {
  return createHash("sha256").update("batch row\n").update(canonicalJson(request)).digest("hex");
}

/** JSON with object keys sorted (undefined members left out), so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

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
