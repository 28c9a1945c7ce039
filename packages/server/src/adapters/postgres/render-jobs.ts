import type { PgBoss } from "pg-boss";
import type { PgExecutor } from "./pool.ts";
import type { PgRenderStoreOptions } from "./render-store.ts";

/** pg-boss queue carrying render jobs; the payload is the id only, the render row holds the rest. */
export const RENDER_QUEUE = "render";

export interface RenderJobData {
  renderId: string;
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
} as const;

/** Settling a given-up render is one small transaction: retried through any outage for about a day. */
const GIVEN_UP_QUEUE_OPTIONS = {
  retryLimit: 300,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 300,
  deleteAfterSeconds: 7 * 24 * 3600,
} as const;

export async function createRenderQueue(boss: PgBoss): Promise<void> {
  // createQueue is a no-op for an existing queue, so every process may call it at start; the
  // dead-letter queue must exist first. A render queue created before it had none gets it here.
  await boss.createQueue(RENDER_GIVEN_UP_QUEUE, GIVEN_UP_QUEUE_OPTIONS);
  await boss.createQueue(RENDER_QUEUE, RENDER_QUEUE_OPTIONS);
  await boss.updateQueue(RENDER_QUEUE, { deadLetter: RENDER_GIVEN_UP_QUEUE });
}

/** pg-boss runs its SQL on whatever executes queries; here, the open transaction's connection. */
const executorOf = (client: PgExecutor) => ({
  executeSql: (text: string, values?: unknown[]) => client.query(text, values),
});

/**
 * The RenderStore hook that enqueues inside the acceptance transaction: the credit charge, the render
 * row and the job commit together or not at all, so no job exists for an unpaid render and no paid
 * render lacks a job.
 */
export function enqueueRenderJobs(boss: PgBoss): NonNullable<PgRenderStoreOptions["enqueueInTransaction"]> {
  return async (client, render) => {
    const data: RenderJobData = { renderId: render.id };
    const jobId = await boss.send(RENDER_QUEUE, data, { db: executorOf(client) });
    if (!jobId) throw new Error(`pg-boss did not enqueue render ${render.id}`);
  };
}
