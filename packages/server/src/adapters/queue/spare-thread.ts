/**
 * The spare render thread (docs/deploy.md, "Fairness between accounts"): while more than one account
 * is rendering, no account may hold every render thread, so another account's render finds one free
 * instead of waiting for a running render to end. An account alone keeps every thread (a single-user
 * server loses nothing). Used by the embedded queue and by a worker process's job loop alike.
 */

/**
 * How long an account counts as rendering after one of its renders started: long enough to bridge
 * the gaps between an interactive caller's renders, short enough that a flood gets its last thread
 * back soon after the others stop.
 */
export const SPARE_THREAD_WINDOW_MS = 5000;

/** Accounts whose renders started within the window, least recent first. */
export class RecentAccounts {
  readonly #lastStart = new Map<string, number>();
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(windowMs = SPARE_THREAD_WINDOW_MS, now: () => number = () => performance.now()) {
    this.#windowMs = windowMs;
    this.#now = now;
  }

  started(accountId: string): void {
    // Deleted first, so the map stays in order of last start and the expired ones lead.
    this.#lastStart.delete(accountId);
    this.#lastStart.set(accountId, this.#now());
  }

  /** True when an account other than `accountId` started a render within the window. */
  othersActive(accountId: string): boolean {
    this.#forgetExpired();
    return this.#lastStart.size > (this.#lastStart.has(accountId) ? 1 : 0);
  }

  /** True when two or more accounts started renders within the window. */
  several(): boolean {
    this.#forgetExpired();
    return this.#lastStart.size > 1;
  }

  #forgetExpired(): void {
    const since = this.#now() - this.#windowMs;
    for (const [account, at] of this.#lastStart) {
      if (at >= since) return;
      this.#lastStart.delete(account);
    }
  }
}

/**
 * The most renders of `accountId` that may run now on `threads` render threads: all but one while
 * another account is rendering, else all of them.
 */
export function spareThreadCap(recent: RecentAccounts, threads: number, accountId: string): number {
  return threads >= 2 && recent.othersActive(accountId) ? threads - 1 : Number.POSITIVE_INFINITY;
}
