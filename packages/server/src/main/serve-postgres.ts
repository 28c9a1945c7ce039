import { PgBoss } from "pg-boss";
import { directoryReadiness } from "../adapters/files/readiness.ts";
import { createPgDispatcher, type PgDispatcher } from "../adapters/postgres/dispatcher.ts";
import { pgEndedRenders } from "../adapters/postgres/ended-renders.ts";
import { isPostgresUnavailable } from "../adapters/postgres/faults.ts";
import { createPgImageUrlStore } from "../adapters/postgres/image-url-store.ts";
import { pgBacklogStats, pgReadiness } from "../adapters/postgres/operations.ts";
import { createRenderQueue } from "../adapters/postgres/render-jobs.ts";
import { startPgRenderWorkers } from "../adapters/postgres/render-queue.ts";
import { processLog } from "../adapters/process-log.ts";
import { isS3Unavailable } from "../adapters/s3/faults.ts";
import { giveUpRenderJob, runRenderJob } from "../jobs/render-job.ts";
import { checkServeSchema } from "./backend.ts";
import type { ServeConfig } from "./config.ts";
import { dataPaths } from "./data-dir.ts";
import { openScaledState, type PostgresBackend } from "./scaled-state.ts";
import type { ServeBackend } from "./serve-backend.ts";

/**
 * One process of a scaled-out deployment: `api` serves HTTP and submits renders (charged and
 * enqueued on pg-boss in one transaction), `worker` renders jobs from pg-boss and delivers callbacks,
 * `all` does both. Every process is stateless; PostgreSQL and the blob store hold everything.
 */
export async function openPostgresServe(
  config: ServeConfig,
  backend: PostgresBackend,
): Promise<ServeBackend> {
  const description = await checkServeSchema(config);
  const serves = config.role !== "worker";
  const renders = config.role !== "api";
  const boss = new PgBoss({
    connectionString: backend.databaseUrl,
    max: 3,
    application_name: `pictor-${config.role}-queue`,
    // Supervision expires the jobs of a worker killed mid-render, so they are retried elsewhere; every
    // process may supervise (pg-boss elects one per pass). Cron schedules are not used.
    superviseIntervalSeconds: config.queueSuperviseSeconds,
    monitorIntervalSeconds: config.queueSuperviseSeconds,
    schedule: false,
  });
  boss.on("error", (error) => processLog().error({ err: error }, "pg-boss"));
  // The state first: it refuses a bucket that does not exist before anything is written, and
  // pg-boss's start creates its schema.
  const state = await openScaledState(config, backend);
  const stopBoss = () => boss.stop({ graceful: false, close: true });
  try {
    await boss.start();
    await createRenderQueue(boss, config.renderRetryDelaySeconds);
  } catch (error) {
    await stopBoss().catch(() => undefined);
    await state.close();
    throw error;
  }
  let dispatcher: PgDispatcher | null = null;
  const blobs = backend.blobs;
  return {
    description,
    state: { ...state, imageUrls: createPgImageUrlStore(state.pool) },
    serves,
    renders,
    // Several processes start together behind a load balancer: whichever won a trial account would
    // print its key into its journal, and a start that failed after creating it stranded it.
    firstAccount: "operator",
    readinessChecks: [
      pgReadiness(state.pool),
      state.checkBlobs ?? directoryReadiness(dataPaths(config.dataDir).blobs),
    ],
    backlog: pgBacklogStats(state.pool, state.clock),
    endedRenders: pgEndedRenders(state.pool),
    isUnavailable: (error) => isPostgresUnavailable(error) || isS3Unavailable(error),
    renderThreads: {
      postgresUrl: backend.databaseUrl,
      ...(blobs.kind === "s3" ? { s3: blobs.s3 } : { blobRoot: dataPaths(config.dataDir).blobs }),
    },
    // Callbacks of renders ended here wake the deliverer; the poll finds retries that came due and
    // events of other processes. Every worker process polls, so not more often than this.
    deliveryPollMs: 1000,
    async startRendering({ pool, job, onEnded }) {
      if (serves) {
        dispatcher = await createPgDispatcher({
          url: backend.databaseUrl,
          pool: state.pool,
          boss,
          renders: state.renders,
          maxQueued: config.maxQueued,
        });
      }
      let stopWorkers: (() => Promise<void>) | null = null;
      return {
        dispatcher,
        async start() {
          if (!pool) return 0;
          // A job taken before the engines load would sit out part of its expiry in this process's queue.
          await pool.ready();
          stopWorkers = await startPgRenderWorkers(boss, {
            url: backend.databaseUrl,
            // One job per render thread, and under a backlog a second one waiting in it (as in the
            // embedded pool), so the thread never idles between renders. A waiting job's lease (a
            // minute) runs meanwhile; were this process killed, it comes back with the running one
            // after the expiry. Only under a backlog: otherwise another worker could start it at once.
            capacity: config.workers,
            queuedPerThread: config.workerPrefetch ? pool.capacity / pool.size - 1 : 0,
            ...(config.accountConcurrency > 0 ? { accountConcurrency: config.accountConcurrency } : {}),
            spareThread: config.spareThread,
            giveUp: (id) => giveUpRenderJob(state, id),
            run: async (id, traceparent) => {
              const ended = await runRenderJob(job, id, undefined, undefined, traceparent);
              onEnded(ended);
              return ended;
            },
          });
          // Jobs left by a stopped process are pg-boss's to hand out again; none is counted here.
          return 0;
        },
        stop: async () => {
          await stopWorkers?.();
        },
      };
    },
    async close() {
      await dispatcher?.close();
      await stopBoss();
      await state.close();
    },
  };
}
