import { EventEmitter } from "node:events";
import type pg from "pg";
import type { PgBoss } from "pg-boss";
import type { RenderDispatcher } from "../../ports/render-dispatcher.ts";
import type { RenderRecord, RenderStore } from "../../ports/render-store.ts";
import { listenTo } from "./listen.ts";
import { withTransaction } from "./pool.ts";
import { enqueueRenderJobs } from "./render-jobs.ts";
import { chargeAndRecord, DEFAULT_QUEUED_COUNT_CAP, RENDER_FINISHED_CHANNEL } from "./render-store.ts";

// Notifications are the fast path; this poll is the floor for one lost while the listening
// connection was being re-established.
const POLL_FLOOR_MS = 1000;
/** The queued count behind `hasRoom` is read again at most this often (hasRoom itself reads nothing). */
const QUEUED_COUNT_EVERY_MS = 1000;

const finished = (r: RenderRecord | null) =>
  r !== null && (r.status === "completed" || r.status === "failed");

export interface PgDispatcher extends RenderDispatcher {
  /**
   * Reads the cluster's queued renders now; `hasRoom` answers from this count until the next read.
   * `hasRoom` itself never waits for a read: it starts one in the background at most once a second.
   */
  countQueued(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The API side of the scaled-out queue. `submit` charges, records and enqueues the render's pg-boss
 * job in one transaction (no job for an unpaid render, no paid render without a job); `wait` wakes on
 * the NOTIFY the render store sends when a render finishes, whichever process ran it. `hasRoom`
 * compares the renders queued in the whole cluster (read at most once a second) with `maxQueued`.
 */
export async function createPgDispatcher(options: {
  url: string;
  pool: pg.Pool;
  boss: PgBoss;
  renders: Pick<RenderStore, "get">;
  /** Queued renders across the cluster above which new work is refused. */
  maxQueued: number;
}): Promise<PgDispatcher> {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const listener = await listenTo(options.url, RENDER_FINISHED_CHANNEL, "pictor-listen", (payload) => {
    if (payload) events.emit(payload);
  });
  const enqueue = enqueueRenderJobs(options.boss);

  let queued = 0;
  let countedAt = 0;
  // One read at a time, so an older read never lands after a newer one.
  let counting: Promise<void> | null = null;
  const count = (read: Promise<void>) => {
    countedAt = Date.now();
    const current = read.finally(() => {
      counting = null;
    });
    counting = current;
    return current;
  };
  const read = () =>
    options.pool
      .query("SELECT count(*) AS n FROM (SELECT 1 FROM renders WHERE status = 'queued' LIMIT $1) q", [
        options.maxQueued + 1,
      ])
      .then(({ rows }) => {
        queued = Number(rows[0]?.n ?? 0);
      });
  /** Reads the cluster's queued renders in the background; a failed read keeps the last count. */
  const recount = () => {
    if (counting || Date.now() - countedAt < QUEUED_COUNT_EVERY_MS) return;
    void count(read().catch(() => undefined));
  };

  return {
    hasRoom(incoming) {
      recount();
      // A batch larger than the whole limit needs an empty queue, not a retry that can never succeed.
      return queued + Math.min(incoming, options.maxQueued) <= options.maxQueued;
    },
    submit(render, { traceparent }) {
      return withTransaction(options.pool, async (client) => {
        const outcome = await chargeAndRecord(client, render, DEFAULT_QUEUED_COUNT_CAP);
        if (!outcome.accepted) return outcome;
        const recorded: RenderRecord = { ...render, status: "queued" };
        await enqueue(client, recorded, outcome.queuedAhead, traceparent);
        return { accepted: true, render: recorded };
      });
    },
    async wait(accountId, renderId, timeoutMs, stop) {
      const deadline = Date.now() + timeoutMs;
      const stopped = () => wakeWaiter?.();
      let wakeWaiter: (() => void) | null = null;
      stop?.addEventListener("abort", stopped, { once: true });
      try {
        for (;;) {
          // Subscribe before reading, so a finish between the read and the wait is not missed.
          let wake: () => void = () => {};
          const woken = new Promise<void>((resolve) => {
            wake = resolve;
          });
          events.once(renderId, wake);
          try {
            const render = await options.renders.get(accountId, renderId);
            if (render && finished(render)) return { render };
            const remaining = deadline - Date.now();
            if (remaining <= 0 || stop?.aborted) return null;
            wakeWaiter = wake;
            let timer: NodeJS.Timeout | undefined;
            await Promise.race([
              woken,
              new Promise<void>((resolve) => {
                timer = setTimeout(resolve, Math.min(remaining, POLL_FLOOR_MS));
              }),
            ]);
            clearTimeout(timer);
          } finally {
            events.off(renderId, wake);
          }
        }
      } finally {
        stop?.removeEventListener("abort", stopped);
      }
    },
    async countQueued() {
      while (counting) await counting.catch(() => undefined);
      await count(read());
    },
    close: () => listener.close(),
  };
}
