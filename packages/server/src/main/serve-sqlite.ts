import { directoryReadiness } from "../adapters/files/readiness.ts";
import { createLocalDispatcher } from "../adapters/queue/local-dispatcher.ts";
import { createLocalRenderQueue } from "../adapters/queue/local-render-queue.ts";
import { createSqliteWebhookSecretStore } from "../adapters/sqlite/account-store.ts";
import { createSqliteBatchStore } from "../adapters/sqlite/batch-store.ts";
import { sqliteEndedRenders } from "../adapters/sqlite/ended-renders.ts";
import { isSqliteBusy } from "../adapters/sqlite/faults.ts";
import { createSqliteImageUrlStore } from "../adapters/sqlite/image-url-store.ts";
import { sqliteBacklogStats, sqliteReadiness } from "../adapters/sqlite/operations.ts";
import { createSqliteWebhookOutbox } from "../adapters/sqlite/webhook-outbox.ts";
import { hmacOutputLinks } from "../http/output-links.ts";
import { giveUpRenderJob, type RenderJobDeps, runRenderJob } from "../jobs/render-job.ts";
import { systemClock } from "../ports/clock.ts";
import { checkServeSchema } from "./backend.ts";
import type { ServeConfig } from "./config.ts";
import { openDataDir } from "./data-dir.ts";
import type { ServeBackend } from "./serve-backend.ts";

/**
 * The embedded default: API and render threads in one process on SQLite and files, renders
 * dispatched by an in-process queue whose durable form is the renders table.
 */
export async function openSqliteServe(config: ServeConfig): Promise<ServeBackend> {
  const description = await checkServeSchema(config);
  const data = openDataDir(config.dataDir, config.examplesDir ? { examplesDir: config.examplesDir } : {});
  return {
    description,
    state: {
      ...data,
      // Blobs are local files: the API serves output links itself.
      outputLinks: hmacOutputLinks(data.signingSecret),
      webhooks: createSqliteWebhookOutbox(data.db),
      webhookSecrets: createSqliteWebhookSecretStore(data.db),
      batches: createSqliteBatchStore(data.db),
      imageUrls: createSqliteImageUrlStore(data.db),
    },
    serves: true,
    renders: true,
    firstAccount: "trial",
    readinessChecks: [sqliteReadiness(data.db), directoryReadiness(data.paths.blobs)],
    backlog: sqliteBacklogStats(data.db, systemClock),
    endedRenders: sqliteEndedRenders(data.db),
    isUnavailable: isSqliteBusy,
    renderThreads: { databaseFile: data.paths.database, blobRoot: data.paths.blobs },
    // A completed render's callback leaves within about this long when the outbox was idle.
    deliveryPollMs: 200,
    async startRendering({ pool, job, onEnded }) {
      if (!pool) throw new Error("the embedded default renders in its own process");
      const jobDeps: RenderJobDeps = { ...job, discardOutput: (blobKey) => data.blobs.delete(blobKey) };
      // A render someone waits for asks the pool for a normal-priority thread (thread-priority.ts).
      const interactiveJobDeps: RenderJobDeps = {
        ...jobDeps,
        runTask: (task) => pool.run({ ...task, interactive: true }),
      };
      const queue = createLocalRenderQueue({
        renders: data.renders,
        concurrency: pool.capacity,
        maxQueued: config.maxQueued,
        ...(config.accountConcurrency > 0 ? { accountConcurrency: config.accountConcurrency } : {}),
        ...(config.spareThread ? { spareThreadOf: { threads: pool.size } } : {}),
        giveUp: (id) => giveUpRenderJob(data, id),
        run: async (id, accepted, admitted, interactive, traceparent) => {
          const ended = await runRenderJob(
            interactive ? interactiveJobDeps : jobDeps,
            id,
            accepted,
            admitted,
            traceparent,
          );
          onEnded(ended);
          return ended;
        },
      });
      return {
        dispatcher: createLocalDispatcher({ queue, renders: data.renders, ledger: data.ledger }),
        // Renders accepted before a crash or restart: the renders table is the queue.
        start: () => queue.recover(),
        // Renders still queued stay in the table for the next start; their waiters answer 202.
        stop: () => queue.drain(),
      };
    },
    close: async () => data.close(),
  };
}
