/**
 * Remembers the outcome of requests sent with an `Idempotency-Key`, so a retry gets the first
 * response instead of a second render and a second charge.
 * Entries are scoped by account: two accounts may use the same key.
 */

/**
 * How long a key is kept, its first answer replayed (24 h), and after how
 * long a claim whose request never finished (its process died) may be taken over: longer than any
 * request may run (`wait` is at most 60 s). The Idempotency-Key header and batch rows' own keys
 * (`idempotency_key`) share them.
 */
export const IDEMPOTENCY_LIMITS = { ttlMs: 24 * 60 * 60 * 1000, lockTimeoutMs: 5 * 60 * 1000 } as const;

export interface IdempotencyScope {
  accountId: string;
  key: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export type IdempotencyBegin =
  /**
   * The caller owns the key now: run the request, then `complete` or `release`. `resumeSince` is set
   * when the key was taken over from the same request whose process died before answering
   * (epoch ms of that request's claim): what it created since then may already exist.
   */
  | { kind: "started"; resumeSince?: number }
  /** A request with this key and the same fingerprint is still running. */
  | { kind: "in_progress" }
  /** The key was used with a different request (fingerprint). */
  | { kind: "mismatch" }
  /** The first request finished: replay its response. */
  | { kind: "completed"; response: StoredResponse };

export interface IdempotencyStore {
  /**
   * Atomically claims the key or reports its state. Entries older than `ttlMs` count as absent.
   * A "started" claim older than `lockTimeoutMs` (its process died) may be taken over.
   */
  begin(
    scope: IdempotencyScope,
    fingerprint: string,
    now: number,
    limits: { ttlMs: number; lockTimeoutMs: number },
  ): Promise<IdempotencyBegin>;
  /** Stores the response of a claimed key. */
  complete(
    scope: IdempotencyScope,
    fingerprint: string,
    response: StoredResponse,
    now: number,
  ): Promise<void>;
  /** Gives up a claimed key (the request failed before it created anything) so a retry runs again. */
  release(scope: IdempotencyScope, fingerprint: string): Promise<void>;
  /**
   * The request failed after it created something (a charged render) and could not answer: the key
   * stays with this request, and the next `begin` with it takes over at once with `resumeSince`, as
   * after a crash, instead of waiting out the lock. Another body under the key is still a mismatch.
   */
  suspend(scope: IdempotencyScope, fingerprint: string): Promise<void>;
}
