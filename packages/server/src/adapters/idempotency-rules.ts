import type { IdempotencyBegin } from "../ports/idempotency-store.ts";

/**
 * What `IdempotencyStore.begin` does about a key that is already stored, shared by the SQLite and
 * PostgreSQL adapters (they differ only in how they read and compare-and-set the row).
 */
export type ExistingKeyDecision =
  /**
   * Compare-and-set the row back to `started` with this `createdAt` and a fresh lock; if that wins,
   * answer `started` (in_progress if another taker won).
   */
  | { action: "take_over"; createdAt: number; started: IdempotencyBegin }
  | { action: "mismatch" }
  | { action: "in_progress" }
  | { action: "replay" };

export function decideExistingKey(
  row: { fingerprint: string; state: string; createdAt: number; lockedAt: number },
  fingerprint: string,
  now: number,
  limits: { ttlMs: number; lockTimeoutMs: number },
): ExistingKeyDecision {
  // Past its time to live the key is free again: a new request, unrelated to the old one.
  if (row.createdAt <= now - limits.ttlMs) {
    return { action: "take_over", createdAt: now, started: { kind: "started" } };
  }
  if (row.fingerprint !== fingerprint) return { action: "mismatch" };
  if (row.state === "completed") return { action: "replay" };
  if (row.lockedAt <= now - limits.lockTimeoutMs) {
    // The same request, whose process died before answering. The key keeps its first claim's time,
    // so a retry of this retry resumes from the same point.
    return {
      action: "take_over",
      createdAt: row.createdAt,
      started: { kind: "started", resumeSince: row.createdAt },
    };
  }
  return { action: "in_progress" };
}
