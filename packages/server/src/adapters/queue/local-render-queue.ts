import { EventEmitter } from "node:events";
import type { FinishedRender } from "../../ports/render-dispatcher.ts";
import type { RenderRecord, RenderStore } from "../../ports/render-store.ts";
import { processLog } from "../process-log.ts";
import { RecentAccounts, SPARE_THREAD_WINDOW_MS, spareThreadCap } from "./spare-thread.ts";

const DRAINED = Symbol("drained");

/**
 * The embedded default's queue, behind its RenderDispatcher (local-dispatcher.ts): the early start
 * and the "starts at once" shortcut are this queue's own business, not the port's.
 */
export interface LocalRenderQueue {
  /**
   * Called after the render's acceptance committed; the row is already durable. `accepted`: the
   * record just inserted, which the run may hand to `RenderStore.claim`. `traceparent`: the trace
   * context its run continues (tracing on). A second call is a no-op.
   */
  enqueue(renderId: string, accountId: string, accepted?: RenderRecord, traceparent?: string): void;
  /** True while the queue cannot take `incoming` more renders (a batch asks for its rows). */
  isFull(incoming: number): boolean;
  /**
   * True when a render of this account enqueued now would start at once (a free worker, the account
   * under its caps, and nothing waiting that could start instead).
   */
  startsAtOnce(accountId: string): boolean;
  /**
   * Starts a render that `startsAtOnce` just said would start, before its acceptance commits.
   * Resolves once the render is on its way to a worker, or with null when it cannot start now after
   * all. The function it resolves with must be told whether the acceptance committed: until then the
   * render's end is not written, and if it did not, the render is thrown away, output and all. A later
   * `enqueue` of it is a no-op.
   */
  startEarly(render: RenderRecord, traceparent?: string): Promise<((admitted: boolean) => void) | null>;
  /** Resolves with the finished render, or null when it is still running at the deadline. */
  waitFor(accountId: string, renderId: string, timeoutMs: number): Promise<FinishedRender | null>;
  /** Re-enqueues every `queued` / `rendering` render: the renders table is the durable queue. */
  recover(): Promise<number>;
  /** Stops taking new work and waits for the renders in flight; queued ones stay queued in the table. */
  drain(): Promise<void>;
}

/**
 * In-process queue of the embedded default. Durability comes from the renders table (a row is
 * inserted with its charge before `enqueue` is called); this object only orders and dispatches ids,
 * at most `concurrency` at a time, and wakes waiters when a render finishes. A run that throws (its
 * store or its output's storage failed) runs again after a backoff; once the retries are spent the
 * render is given up (failed and refunded), so none stays `rendering` until the next start.
 */
export function createLocalRenderQueue(options: {
  renders: RenderStore;
  concurrency: number;
  /** Queued renders (not yet dispatched) above which new work is refused; default 10,000. */
  maxQueued?: number;
  /**
   * Runs one render to its end; resolves with how it ended when it ended it (waiters get that as is).
   * `accepted`: the record as accepted, on its first run in this process (see RenderStore.claim).
   * `admitted`: for a render started before its acceptance committed (startEarly), whether it did.
   * `interactive`: someone waits for it (started early for a waiting caller, or `waitFor` called).
   * `traceparent`: the trace context it was enqueued with, on every run of it in this process.
   */
  run(
    renderId: string,
    accepted: RenderRecord | undefined,
    admitted: Promise<boolean> | undefined,
    interactive: boolean,
    traceparent: string | undefined,
  ): Promise<FinishedRender | null>;
  /** Ends a render whose runs kept failing (failed and refunded; a no-op if it had finished). */
  giveUp(renderId: string): Promise<unknown>;
  /** Renders of one account that may run at once; default no cap beyond `concurrency`. */
  accountConcurrency?: number;
  /**
   * The render threads behind `concurrency` (which may count several tasks per thread), when one is
   * kept spare for other accounts (spare-thread.ts): while another account is rendering, one account
   * runs at most threads - 1 renders. Absent: no spare thread.
   */
  spareThreadOf?: { threads: number };
  /** How long an account counts as rendering after a start (spare thread); default 5 s. */
  spareThreadWindowMs?: number;
  /** Waits before each run again after a failed one; default 1, 2, 4, 8, 16 s. */
  retryDelaysMs?: readonly number[];
}): LocalRenderQueue {
  // One FIFO per account, served round-robin: an account that queues thousands of renders delays
  // its own, not everyone's.
  const pendingByAccount = new Map<string, string[]>();
  let pendingCount = 0;
  const maxQueued = options.maxQueued ?? 10_000;
  const known = new Set<string>();
  const accountOf = new Map<string, string>();
  const acceptedRecords = new Map<string, RenderRecord>();
  const traceparents = new Map<string, string>();
  const failedRuns = new Map<string, number>();
  const retryDelays = options.retryDelaysMs ?? [1000, 2000, 4000, 8000, 16_000];
  const inFlight = new Map<string, Promise<void>>();
  const accountCap = options.accountConcurrency ?? Number.POSITIVE_INFINITY;
  const runningByAccount = new Map<string, number>();
  const running = (accountId: string) => runningByAccount.get(accountId) ?? 0;
  const spareWindowMs = options.spareThreadWindowMs ?? SPARE_THREAD_WINDOW_MS;
  const recent = new RecentAccounts(spareWindowMs);
  const spare = options.spareThreadOf;
  /** How many renders of the account may run now: the configured cap, and all threads but one while others render. */
  const capOf = (accountId: string) =>
    spare ? Math.min(accountCap, spareThreadCap(recent, spare.threads, accountId)) : accountCap;
  // A render held back only by the spare thread may start once the others have been quiet for the
  // window: looked at again then, since no run's end may come to do it.
  let recheck: NodeJS.Timeout | null = null;
  const finished = new EventEmitter();
  finished.setMaxListeners(0);
  let draining = false;

  const start = (id: string, accepted?: RenderRecord, admitted?: Promise<boolean>) => {
    const account = accountOf.get(id) as string;
    runningByAccount.set(account, running(account) + 1);
    recent.started(account);
    const interactive = admitted !== undefined || finished.listenerCount(id) > 0;
    const done = options.run(id, accepted, admitted, interactive, traceparents.get(id)).then(
      (ended) => settle(id, ended, false),
      (error: unknown) => {
        logFault("render job failed", id, error);
        return settle(id, null, true);
      },
    );
    inFlight.set(id, done);
  };

  /** No queued render could start now: none is queued, or every account with some is at its cap. */
  const nobodyWaitingCanStart = () => {
    if (pendingCount === 0) return true;
    for (const account of pendingByAccount.keys()) if (running(account) < capOf(account)) return false;
    return true;
  };
  /** A render of this account enqueued now would start at once, jumping no one. */
  const startsAtOnce = (accountId: string) =>
    !draining &&
    inFlight.size < options.concurrency &&
    running(accountId) < capOf(accountId) &&
    nobodyWaitingCanStart();

  const pump = () => {
    while (!draining && inFlight.size < options.concurrency && pendingCount > 0) {
      const id = takeNext();
      // Every account with queued renders is at its cap.
      if (id === null) {
        if (spare) recheck ??= setTimeout(pumpAgain, spareWindowMs).unref();
        return;
      }
      const accepted = acceptedRecords.get(id);
      acceptedRecords.delete(id);
      start(id, accepted);
    }
  };

  const pumpAgain = () => {
    recheck = null;
    pump();
  };

  /** After a run: again later if it threw and retries are left, else over (given up if it threw). */
  const settle = async (id: string, ended: FinishedRender | null, threw: boolean) => {
    inFlight.delete(id);
    const account = accountOf.get(id) as string;
    if (running(account) <= 1) runningByAccount.delete(account);
    else runningByAccount.set(account, running(account) - 1);
    if (threw && !draining) {
      const runs = (failedRuns.get(id) ?? 0) + 1;
      failedRuns.set(id, runs);
      const delay = retryDelays[runs - 1];
      if (delay !== undefined) {
        // Still known: waiters keep waiting, and a second enqueue of the id stays a no-op.
        setTimeout(() => requeue(id), delay).unref();
        pump();
        return;
      }
      await options.giveUp(id).catch((error: unknown) => logFault("render give-up failed", id, error));
    }
    failedRuns.delete(id);
    accountOf.delete(id);
    traceparents.delete(id);
    known.delete(id);
    finished.emit(id, ended);
    pump();
  };

  const push = (renderId: string, accountId: string) => {
    const ids = pendingByAccount.get(accountId);
    if (ids) ids.push(renderId);
    else pendingByAccount.set(accountId, [renderId]);
    pendingCount++;
  };

  const requeue = (renderId: string) => {
    // Draining: left as it is in the table; the next start recovers it.
    if (draining) return;
    push(renderId, accountOf.get(renderId) as string);
    pump();
  };

  const takeNext = (): string | null => {
    // Map iteration order is insertion order: take from the first account under its cap, then move
    // it to the back.
    let next: [string, string[]] | null = null;
    for (const entry of pendingByAccount) {
      if (running(entry[0]) < capOf(entry[0])) {
        next = entry;
        break;
      }
    }
    if (!next) return null;
    const [account, ids] = next;
    const id = ids.shift() as string;
    pendingByAccount.delete(account);
    if (ids.length > 0) pendingByAccount.set(account, ids);
    pendingCount--;
    return id;
  };

  return {
    enqueue(renderId, accountId, accepted, traceparent) {
      if (known.has(renderId)) return;
      known.add(renderId);
      accountOf.set(renderId, accountId);
      if (traceparent) traceparents.set(renderId, traceparent);
      if (accepted) acceptedRecords.set(renderId, accepted);
      push(renderId, accountId);
      pump();
    },
    startsAtOnce,
    async startEarly(render, traceparent) {
      if (!startsAtOnce(render.accountId) || known.has(render.id)) return null;
      known.add(render.id);
      accountOf.set(render.id, render.accountId);
      if (traceparent) traceparents.set(render.id, traceparent);
      let admit: (admitted: boolean) => void = () => {};
      const admitted = new Promise<boolean>((resolve) => {
        admit = resolve;
      });
      start(render.id, render, admitted);
      // The run reaches its worker a few microtasks from now (its claim, then the task's message):
      // answering after them lets the caller's charge commit while the worker renders.
      await new Promise((resolve) => setImmediate(resolve));
      return admit;
    },
    isFull(incoming) {
      // A batch larger than the whole limit needs an empty queue, not a retry that can never succeed.
      return draining || pendingCount + Math.min(incoming, maxQueued) > maxQueued;
    },
    async recover() {
      const pending = await options.renders.pending();
      for (const render of pending) this.enqueue(render.id, render.accountId);
      return pending.length;
    },
    async waitFor(accountId, renderId, timeoutMs): Promise<FinishedRender | null> {
      const isDone = (r: RenderRecord | null): r is RenderRecord =>
        r !== null && (r.status === "completed" || r.status === "failed");
      // Listen before looking, so a render finishing in between cannot be missed.
      let stop = () => {};
      const woken = new Promise<FinishedRender | null>((resolve) => {
        const timer = setTimeout(done, Math.max(0, timeoutMs));
        function done(ended?: FinishedRender | null) {
          clearTimeout(timer);
          finished.off(renderId, done);
          finished.off(DRAINED, done);
          resolve(ended ?? null);
        }
        finished.on(renderId, done);
        finished.once(DRAINED, done);
        stop = done;
      });
      // A render this queue holds has not finished: no need to look (the common case, right after
      // acceptance). One it does not hold may have finished before, or in another process.
      if (!known.has(renderId) || timeoutMs <= 0) {
        const now = await options.renders.get(accountId, renderId);
        if (isDone(now) || timeoutMs <= 0) {
          stop();
          return isDone(now) ? { render: now } : null;
        }
      }
      const ended = await woken;
      // Only the renders of this account are answered from the job's own outcome.
      if (ended && ended.render.accountId === accountId) return ended;
      const after = await options.renders.get(accountId, renderId);
      return isDone(after) ? { render: after } : null;
    },
    async drain() {
      draining = true;
      if (recheck) clearTimeout(recheck);
      await Promise.all(inFlight.values());
      // Renders still queued will not run in this process: their waiters answer 202 now.
      finished.emit(DRAINED);
    },
  };
}

function logFault(msg: string, renderId: string, error: unknown): void {
  processLog().error({ render_id: renderId, err: error }, msg);
}
