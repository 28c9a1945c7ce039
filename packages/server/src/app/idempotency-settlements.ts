import type { IdempotencyScope, IdempotencyStore } from "../ports/idempotency-store.ts";

type Settlement = "release" | "suspend";

interface Pending {
  scope: IdempotencyScope;
  fingerprint: string;
  action: Settlement;
  /** Epoch ms when the request gave the key up. */
  since: number;
  /** The write in flight, shared by whoever needs it done (the retry timer, the next claim). */
  writing: Promise<void> | null;
}

export interface SettlingIdempotencyStore extends IdempotencyStore {
  /** Settlements the store has not taken yet. */
  pendingCount(): number;
  /** Stops retrying (the process is closing): what is left falls back to the lock timeout. */
  close(): void;
}

export interface SettlementOptions {
  /** Claims older than this may be taken over by anyone: a settlement this old is dropped, not written. */
  lockTimeoutMs: number;
  /**
   * How long `release` and `suspend` wait for the store before returning with the write still in
   * flight (a store that does not answer, rather than refusing: the request's answer is not held
   * for the connection timeout). Default 1 s.
   */
  answerWithinMs?: number;
  /** First pause before writing the pending settlements again; doubled up to maxRetryMs. Default 1 s. */
  retryMs?: number;
  maxRetryMs?: number;
  now?: () => number;
  /** A settlement could not be written and waits for the store (logged by the caller). */
  onDeferred?: (error: unknown, scope: IdempotencyScope) => void;
}

/**
 * An IdempotencyStore whose `release` and `suspend` never fail. A request that failed (5xx) gives its
 * key up with one of them so that the retry runs (release) or resumes (suspend) at once; when the
 * store itself is what failed, that write fails too, and the key would stay claimed until its lock
 * times out (minutes of `idempotency_key_in_use`). Here a failed settlement is kept in memory and
 * written again: by a timer, as soon as the store answers (so retries that reach other processes find
 * the key free within a few seconds), and before this process claims the same key again (so a retry
 * that reaches this process finds it free at once). A claim waits for its key's settlement to be
 * written before it claims: a settlement never lands on a newer claim of the key. One older than half
 * the lock timeout is dropped, since by then another process may have taken the key over.
 */
export function settleWhenReachable(
  store: IdempotencyStore,
  options: SettlementOptions,
): SettlingIdempotencyStore {
  const now = options.now ?? Date.now;
  const firstRetryMs = options.retryMs ?? 1000;
  const maxRetryMs = options.maxRetryMs ?? 8000;
  const maxAgeMs = options.lockTimeoutMs / 2;
  const answerWithinMs = options.answerWithinMs ?? 1000;
  const pending = new Map<string, Pending>();
  const idOf = (scope: IdempotencyScope) => `${scope.accountId}\n${scope.key}`;
  let timer: NodeJS.Timeout | undefined;
  let retryMs = firstRetryMs;
  let closed = false;

  /** Writes the settlement once, however many ask for it; it leaves the map only once written. */
  const write = (id: string, entry: Pending): Promise<void> => {
    entry.writing ??= store[entry.action](entry.scope, entry.fingerprint).then(
      () => {
        if (pending.get(id) === entry) pending.delete(id);
      },
      (error: unknown) => {
        entry.writing = null;
        throw error;
      },
    );
    return entry.writing;
  };

  const schedule = () => {
    if (closed || timer !== undefined || pending.size === 0) return;
    timer = setTimeout(flush, retryMs);
    timer.unref();
  };

  async function flush(): Promise<void> {
    timer = undefined;
    const cutoff = now() - maxAgeMs;
    for (const [id, entry] of pending) {
      if (entry.since < cutoff && entry.writing === null) {
        pending.delete(id);
        continue;
      }
      try {
        await write(id, entry);
      } catch {
        // Still unreachable: the rest would fail the same way. Back off.
        retryMs = Math.min(retryMs * 2, maxRetryMs);
        schedule();
        return;
      }
    }
    retryMs = firstRetryMs;
    schedule();
  }

  const settle = async (action: Settlement, scope: IdempotencyScope, fingerprint: string) => {
    const id = idOf(scope);
    const entry: Pending = { scope, fingerprint, action, since: now(), writing: null };
    pending.set(id, entry);
    const written = write(id, entry).catch((error: unknown) => {
      options.onDeferred?.(error, scope);
      schedule();
    });
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      written,
      new Promise<void>((resolve) => {
        timeout = setTimeout(resolve, answerWithinMs);
      }),
    ]);
    clearTimeout(timeout);
  };

  return {
    async begin(scope, fingerprint, at, limits) {
      const id = idOf(scope);
      const entry = pending.get(id);
      // Throws while the store is still unreachable, as the claim itself would.
      if (entry) await write(id, entry);
      return store.begin(scope, fingerprint, at, limits);
    },
    complete: (scope, fingerprint, response, at) => store.complete(scope, fingerprint, response, at),
    release: (scope, fingerprint) => settle("release", scope, fingerprint),
    suspend: (scope, fingerprint) => settle("suspend", scope, fingerprint),
    pendingCount: () => pending.size,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
