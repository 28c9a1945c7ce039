import { createHash } from "node:crypto";
import type { PgBoss } from "pg-boss";
import type { RenderRecord } from "../../ports/render-store.ts";
import type { PgExecutor } from "./pool.ts";

/** pg-boss queue carrying render jobs; the payload is the id (the render row holds the rest). */
export const RENDER_QUEUE = "render";

export interface RenderJobData {
  renderId: string;
  /** The W3C trace context of the render's acceptance, when traced: the worker's spans continue it. */
  traceparent?: string;
}

/**
 * Where pg-boss moves a render job whose retries are spent (a render that kills every worker it
 * touches, a database away for longer than the backoff): its render is then failed and refunded
 * (settleGivenUpRenderJobs), so no charged render stays `rendering` for ever.
 */
export const RENDER_GIVEN_UP_QUEUE = "render-given-up";

/**
 * Delivery policy of the render queue. A worker that dies mid-render stops completing its job; pg-boss
 * expires it after `expireInSeconds` and retries it with exponential backoff. Rendering is idempotent
 * (output key from the render id, credits charged once at acceptance), so redelivery is safe.
 */
export const RENDER_QUEUE_OPTIONS = {
  // A render takes well under a second of CPU; a minute covers a cold engine and slow image fetches.
  expireInSeconds: 60,
  retryLimit: 3,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 60,
  // Finished jobs are history only (the renders table is the record); keep a week for debugging.
  deleteAfterSeconds: 7 * 24 * 3600,
  deadLetter: RENDER_GIVEN_UP_QUEUE,
  // Each send NOTIFYs pg-boss's channel inside the inserting statement (no extra round trip); idle
  // workers LISTEN to it instead of polling (render-queue.ts).
  notify: true,
} as const;

/** Settling a given-up render is one small transaction: retried through any outage for about a day. */
const GIVEN_UP_QUEUE_OPTIONS = {
  retryLimit: 300,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 300,
  deleteAfterSeconds: 7 * 24 * 3600,
} as const;

/**
 * Creates the render queues, or brings an existing render queue to this process's settings.
 * `retryDelaySeconds` (PICTOR_RENDER_RETRY_DELAY_SECONDS, default RENDER_QUEUE_OPTIONS.retryDelay) is
 * the wait before a failed job's first retry; the queue holds one value, so the process started last
 * sets it for all.
 */
export async function createRenderQueue(
  boss: PgBoss,
  retryDelaySeconds: number = RENDER_QUEUE_OPTIONS.retryDelay,
): Promise<void> {
  // createQueue is a no-op for an existing queue, so every process may call it at start; the
  // dead-letter queue must exist first. A render queue created before it had none gets it here.
  await boss.createQueue(RENDER_GIVEN_UP_QUEUE, GIVEN_UP_QUEUE_OPTIONS);
  await boss.createQueue(RENDER_QUEUE, { ...RENDER_QUEUE_OPTIONS, retryDelay: retryDelaySeconds });
  await boss.updateQueue(RENDER_QUEUE, {
    deadLetter: RENDER_GIVEN_UP_QUEUE,
    notify: true,
    retryDelay: retryDelaySeconds,
  });
}

/**
 * The pg-boss job id of a render: derived from the render id (a name-based UUID), so a render's job
 * can be found (and is never sent twice) by the render id alone.
 */
export function renderJobId(renderId: string): string {
  const h = createHash("sha1").update(`pictor-render:${renderId}`).digest();
  h[6] = ((h[6] as number) & 0x0f) | 0x50;
  h[8] = ((h[8] as number) & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Per-account fairness: pg-boss hands out jobs by priority (higher first), then age. A render's
 * priority is minus the number of its account's renders already queued, so every account's next
 * render ranks alongside every other's: one account's 5,000 queued renders wait behind each other,
 * not in front of another account's first (round-robin between accounts with a backlog, like the
 * embedded queue). The count is capped (render-store.ts, chargeAndRecord); past it, by age.
 */
export const fairPriority = (queuedAhead: number) => -queuedAhead;

/** pg-boss runs its SQL on whatever executes queries; here, the open transaction's connection. */
const executorOf = (client: PgExecutor) => ({
  executeSql: (text: string, values?: unknown[]) => client.query(text, values),
});

/**
 * Enqueues a render's job inside its acceptance transaction (the dispatcher's submit): the credit
 * charge, the render row and the job commit together or not at all, so no job exists for an unpaid
 * render and no paid render lacks a job.
 */
export function enqueueRenderJobs(
  boss: PgBoss,
): (client: PgExecutor, render: RenderRecord, queuedAhead: number, traceparent?: string) => Promise<void> {
  return async (client, render, queuedAhead, traceparent) => {
    const data: RenderJobData = { renderId: render.id, ...(traceparent ? { traceparent } : {}) };
    const jobId = await boss.send(RENDER_QUEUE, data, {
      db: executorOf(client),
      id: renderJobId(render.id),
      priority: fairPriority(queuedAhead),
      // The group is the account: workers may cap how many of one account's renders run at once.
      group: { id: render.accountId },
    });
    if (!jobId) throw new Error(`pg-boss did not enqueue render ${render.id}`);
  };
}
