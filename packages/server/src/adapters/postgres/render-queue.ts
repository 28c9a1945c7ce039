import { EventEmitter } from "node:events";
import pg from "pg";
import type { PgBoss } from "pg-boss";
import type { RenderQueue } from "../../ports/render-queue.ts";
import type { RenderRecord, RenderStore } from "../../ports/render-store.ts";
import { RENDER_GIVEN_UP_QUEUE, RENDER_QUEUE, type RenderJobData } from "./render-jobs.ts";
import { RENDER_FINISHED_CHANNEL } from "./render-store.ts";

// Notifications are the fast path; this poll is the floor for one lost while the listening
// connection was being re-established.
const POLL_FLOOR_MS = 1000;
const RECONNECT_MS = 1000;

const finished = (r: RenderRecord | null) =>
  r !== null && (r.status === "completed" || r.status === "failed");

export interface PgRenderQueue extends RenderQueue {
  close(): Promise<void>;
}

/**
 * The API side of the scaled-out queue. Renders are enqueued by the RenderStore inside the
 * acceptance transaction (render-jobs.ts), so `enqueue` has nothing left to do; `waitFor` (wait-mode
 * renders) wakes on the NOTIFY the RenderStore sends when a render finishes, whichever process ran it.
 */
export async function createPgRenderQueue(options: {
  url: string;
  renders: RenderStore;
}): Promise<PgRenderQueue> {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  let closed = false;
  let client: pg.Client | null = null;

  const listen = async () => {
    const c = new pg.Client({ connectionString: options.url, application_name: "pictor-listen" });
    c.on("notification", (n) => {
      if (n.channel === RENDER_FINISHED_CHANNEL && n.payload) events.emit(n.payload);
    });
    c.on("error", () => {
      if (closed) return;
      client = null;
      c.end().catch(() => {});
      setTimeout(() => void listen().catch(() => {}), RECONNECT_MS).unref();
    });
    await c.connect();
    await c.query(`LISTEN ${RENDER_FINISHED_CHANNEL}`);
    client = c;
  };
  await listen();

  return {
    enqueue() {},
    async waitFor(accountId, renderId, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
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
          if (remaining <= 0) return null;
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
    },
    async close() {
      closed = true;
      await client?.end();
    },
  };
}

// An idle render slot asks for a job this often. A slot that just finished one asks again at once:
// pg-boss's own work() loop waits its polling interval after every job, which capped each render
// thread at two renders a second (a 1,000-row batch took four minutes on two threads).
const IDLE_POLL_MS = 500;

/**
 * The worker side: `concurrency` slots each take one render job from pg-boss at a time and run it to
 * its end state with `run` (the shared runRenderJob), then complete it. A throw fails the job into
 * pg-boss's retry with backoff; a process killed mid-render has its job expire and redelivered
 * (render-jobs.ts), and runRenderJob is idempotent. Returns a stop function that lets jobs in flight
 * finish.
 */
export async function startPgRenderWorkers(
  boss: PgBoss,
  options: {
    concurrency: number;
    run(renderId: string): Promise<unknown>;
    /** Ends a render whose job was given up (failed and refunded; a no-op if it had finished). */
    giveUp(renderId: string): Promise<unknown>;
  },
): Promise<() => Promise<void>> {
  let stopping = false;
  const sleepers = new Set<() => void>();
  const idle = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, IDLE_POLL_MS);
      sleepers.add(done);
    });
  const slot = async () => {
    while (!stopping) {
      let job: { id: string; data: RenderJobData } | undefined;
      try {
        [job] = await boss.fetch<RenderJobData>(RENDER_QUEUE, { batchSize: 1 });
      } catch {
        // Database unreachable for a moment: the next poll tries again.
      }
      if (!job) {
        await idle();
        continue;
      }
      try {
        await options.run(job.data.renderId);
        await boss.complete(RENDER_QUEUE, job.id);
      } catch (error) {
        await boss.fail(RENDER_QUEUE, job.id, { message: String(error) }).catch(() => {});
      }
    }
  };
  const settler = async () => {
    while (!stopping) {
      const settled = await settleGivenUpRenderJobs(boss, options.giveUp).catch(() => 0);
      if (settled === 0) await idle();
    }
  };
  const slots = [...Array.from({ length: options.concurrency }, slot), settler()];
  return async () => {
    stopping = true;
    for (const wake of sleepers) wake();
    await Promise.all(slots);
  };
}

/**
 * One pass over the render jobs pg-boss gave up on (RENDER_GIVEN_UP_QUEUE): each render is ended with
 * `giveUp` and its job completed; a job whose settling fails (database away) is retried by pg-boss.
 * Returns how many jobs it took.
 */
export async function settleGivenUpRenderJobs(
  boss: PgBoss,
  giveUp: (renderId: string) => Promise<unknown>,
): Promise<number> {
  const jobs = await boss.fetch<RenderJobData>(RENDER_GIVEN_UP_QUEUE, { batchSize: 20 });
  for (const job of jobs) {
    try {
      await giveUp(job.data.renderId);
      await boss.complete(RENDER_GIVEN_UP_QUEUE, job.id);
    } catch (error) {
      await boss.fail(RENDER_GIVEN_UP_QUEUE, job.id, { message: String(error) }).catch(() => {});
    }
  }
  return jobs.length;
}
