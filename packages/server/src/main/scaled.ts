import { PgBoss } from "pg-boss";
import { createSafeFetch } from "../adapters/fetch/safe-fetch.ts";
import { createPgDispatcher, type PgDispatcher } from "../adapters/postgres/dispatcher.ts";
import { isPostgresUnavailable } from "../adapters/postgres/faults.ts";
import { createPgImageUrlStore } from "../adapters/postgres/image-url-store.ts";
import { createRenderQueue } from "../adapters/postgres/render-jobs.ts";
import { startPgRenderWorkers } from "../adapters/postgres/render-queue.ts";
import { createWorkerPool, type WorkerPool } from "../adapters/queue/worker-pool.ts";
import { isS3Unavailable } from "../adapters/s3/faults.ts";
import { createRenderService } from "../app/render-service.ts";
import { createAccount } from "../domain/accounts.ts";
import { buildApp } from "../http/app.ts";
import type { App } from "../http/app-types.ts";
import { assetLinksAt } from "../http/views.ts";
import { createWebhookDeliverer } from "../jobs/deliver-webhooks.ts";
import { OutputHashes } from "../jobs/output-hashes.ts";
import { giveUpRenderJob, runRenderJob } from "../jobs/render-job.ts";
import type { ServeConfig } from "./config.ts";
import { dataPaths } from "./data-dir.ts";
import {
  fileRouteOptions,
  listen,
  logOptions,
  type RunningServer,
  type ServeTestHooks,
} from "./running-server.ts";
import { openScaledState, type PostgresBackend, type ScaledState } from "./scaled-state.ts";

// Any constant both sides agree on; pg advisory locks are per database.
const FIRST_START_LOCK = 7_140_001;

/**
 * One process of a scaled-out deployment: `api` serves HTTP and enqueues renders (in the acceptance
 * transaction), `worker` renders jobs from pg-boss and delivers callbacks, `all` does both. Every
 * process is stateless; PostgreSQL and the blob store hold everything.
 */
export async function startScaledServer(
  config: ServeConfig,
  backend: PostgresBackend,
  testHooks: ServeTestHooks = {},
): Promise<RunningServer> {
  const servesApi = config.role !== "worker";
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
  boss.on("error", (error) =>
    process.stderr.write(`${JSON.stringify({ level: "error", msg: "pg-boss", err: String(error) })}\n`),
  );
  await boss.start();
  await createRenderQueue(boss);
  const state = await openScaledState(config, backend);
  const safeFetch = createSafeFetch({
    allowlist: config.outboundAllowlist,
    ...(testHooks.lookup ? { lookup: testHooks.lookup } : {}),
  });
  // Callback bodies carry absolute links: the configured public URL (required for a worker), else
  // this process's own address once it listens (`all`).
  let linkBase = config.publicUrl?.replace(/\/+$/, "") ?? "";

  // Role `all` renders in this process too: its asset reads can wait for the output hashes it records.
  const outputHashes = servesApi && renders ? new OutputHashes() : null;
  let app: App | null = null;
  let dispatcher: PgDispatcher | null = null;
  let firstStart: RunningServer["firstStart"] = null;
  let url = "";
  if (servesApi) {
    // Read now, so a starter directory that cannot be read stops the start, not every later sign-up.
    await state.starters.load().catch(async (error: unknown) => {
      await boss.stop({ graceful: false, close: true });
      await state.close();
      throw error;
    });
    dispatcher = await createPgDispatcher({
      url: backend.databaseUrl,
      pool: state.pool,
      boss,
      renders: state.renders,
      maxQueued: config.maxQueued,
    });
    const renderService = createRenderService({
      ...state,
      checkUrl: (url) => safeFetch.check(url),
      dispatcher,
    });
    app = await buildApp(
      {
        ...state,
        renderService,
        safeFetch,
        ...(outputHashes ? { assetLibrary: outputHashes.readsAfterHashes(state.assetLibrary) } : {}),
        ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
        openSignup: config.openSignup,
        onDemand: {
          imageUrls: createPgImageUrlStore(state.pool),
          cacheMaxBytes: config.imageCacheMaxBytes,
          missesBurst: config.imageMissesBurst,
          missesPerSecond: config.imageMissesPerSecond,
          missWaitMs: config.imageMissWaitSeconds * 1000,
        },
      },
      {
        logger: logOptions(config),
        isUnavailable: (error) => isPostgresUnavailable(error) || isS3Unavailable(error),
        idempotencyStore: state.idempotency,
        rateLimit: { burst: config.rateLimitBurst, refillPerSecond: config.rateLimitPerSecond },
        authFailureLimit: {
          burst: config.authFailuresBurst,
          refillPerSecond: config.authFailuresPerSecond,
        },
        ...fileRouteOptions(config),
      },
    );
    const listening = await listen(app, config);
    url = config.publicUrl ?? listening;
    linkBase ||= listening;
    // After listening, as in the embedded default: a failed start keeps the trial key unshown.
    firstStart = await trialAccountOnFirstStart(state);
  }

  let pool: WorkerPool | null = null;
  let stopRendering: (() => Promise<void>) | null = null;
  let deliverer: ReturnType<typeof createWebhookDeliverer> | null = null;
  if (renders) {
    const blobs = backend.blobs;
    pool = createWorkerPool(config.workers, {
      postgresUrl: backend.databaseUrl,
      ...(blobs.kind === "s3" ? { s3: blobs.s3 } : { blobRoot: dataPaths(config.dataDir).blobs }),
      outboundAllowlist: config.outboundAllowlist,
      memory: config.memory,
      ...(testHooks.trapOnDocumentKey ? { trapOnDocumentKey: testHooks.trapOnDocumentKey } : {}),
    });
    const runTask = pool.run;
    // A job taken before the engines load would sit out part of its expiry in this process's queue.
    await pool.ready();
    stopRendering = await startPgRenderWorkers(boss, {
      url: backend.databaseUrl,
      // One job per render thread, and under a backlog a second one waiting in it (as in the embedded
      // pool), so the thread never idles between renders. A waiting job's lease (a minute) runs
      // meanwhile; were this process killed, it comes back with the running one after the expiry.
      // Only under a backlog: otherwise another worker could start it at once.
      capacity: config.workers,
      queuedPerThread: config.workerPrefetch ? pool.capacity / pool.size - 1 : 0,
      ...(config.accountConcurrency > 0 ? { accountConcurrency: config.accountConcurrency } : {}),
      spareThread: config.spareThread,
      giveUp: (id) => giveUpRenderJob(state, id),
      run: async (id) => {
        const ended = await runRenderJob(
          {
            renders: state.renders,
            clock: state.clock,
            runTask,
            assetLinks: (asset) => assetLinksAt(state, linkBase, asset),
            // No API in this process waits on the hash: it goes into the completing transaction.
            ...(outputHashes
              ? { recordingHash: (recording) => outputHashes.track(recording) }
              : { hashWithCompletion: true }),
          },
          id,
        );
        // Its callback was queued with its end: sent now rather than at the deliverer's next poll.
        if (ended?.render.webhookUrl) deliverer?.wake();
        return ended;
      },
    });
    deliverer = createWebhookDeliverer({
      outbox: state.outbox,
      safeFetch,
      getSigningSecret: async (accountId) => {
        const secret = await state.accounts.webhookSecret(accountId);
        if (secret === null) throw new Error(`account ${accountId} has no webhook secret`);
        return secret;
      },
      clock: state.clock,
      random: Math.random,
      // Callbacks of renders ended here wake it (above); the poll finds retries that came due and
      // events of other processes. Every worker process polls, so not more often than this.
      pollIntervalMs: 1000,
      onError: (error) =>
        process.stderr.write(
          `${JSON.stringify({ level: "error", msg: "webhook delivery fault", err: String(error) })}\n`,
        ),
    });
    // Events a killed process left in flight are due again once their lease expires: resumed here.
    deliverer.start();
  }

  let closing: Promise<void> | null = null;
  return {
    url,
    firstStart,
    workersReady: () => pool?.ready() ?? Promise.resolve(),
    renderThreads: pool?.size ?? 0,
    close() {
      closing ??= (async () => {
        // Stop taking requests and jobs; renders in flight finish (their waiters get an answer
        // through NOTIFY), then callbacks in flight, then the connections.
        await Promise.all([app?.close(), stopRendering?.()]);
        await deliverer?.stop();
        await pool?.close();
        await dispatcher?.close();
        await boss.stop({ graceful: false, close: true });
        await state.close();
      })();
      return closing;
    },
  };
}

/** The trial account of the embedded default, created once even when several API processes start together. */
async function trialAccountOnFirstStart(state: ScaledState): Promise<RunningServer["firstStart"]> {
  const client = await state.pool.connect();
  const onLost = () => {};
  client.on("error", onLost);
  try {
    await client.query("SELECT pg_advisory_lock($1)", [FIRST_START_LOCK]);
    const { rows } = await client.query("SELECT EXISTS (SELECT 1 FROM accounts) AS any");
    if (rows[0]?.any) return null;
    return await createAccount(state, { name: "trial" });
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [FIRST_START_LOCK]).catch(() => {});
    client.removeListener("error", onLost);
    client.release();
  }
}
