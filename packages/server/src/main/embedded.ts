import { createSafeFetch } from "../adapters/fetch/safe-fetch.ts";
import { createLocalDispatcher } from "../adapters/queue/local-dispatcher.ts";
import { createLocalRenderQueue } from "../adapters/queue/local-render-queue.ts";
import { createWorkerPool } from "../adapters/queue/worker-pool.ts";
import { createSqliteWebhookSecretStore } from "../adapters/sqlite/account-store.ts";
import { createSqliteBatchStore } from "../adapters/sqlite/batch-store.ts";
import { isSqliteBusy } from "../adapters/sqlite/faults.ts";
import { createSqliteImageUrlStore } from "../adapters/sqlite/image-url-store.ts";
import { createSqliteWebhookOutbox } from "../adapters/sqlite/webhook-outbox.ts";
import { createRenderService } from "../app/render-service.ts";
import { createAccount } from "../domain/accounts.ts";
import { buildApp } from "../http/app.ts";
import { hmacOutputLinks } from "../http/output-links.ts";
import { assetLinksAt } from "../http/views.ts";
import { createWebhookDeliverer } from "../jobs/deliver-webhooks.ts";
import { OutputHashes } from "../jobs/output-hashes.ts";
import { giveUpRenderJob, type RenderJobDeps, runRenderJob } from "../jobs/render-job.ts";
import type { ServeConfig } from "./config.ts";
import { openDataDir } from "./data-dir.ts";
import {
  fileRouteOptions,
  listen,
  logOptions,
  type RunningServer,
  type ServeTestHooks,
} from "./running-server.ts";

/** The embedded default: API and render threads in one process on SQLite, files and an in-process queue. */
export async function startEmbeddedServer(
  config: ServeConfig,
  /** Tests only: DNS answers for the API process's outbound guard (webhook checks and deliveries). */
  testHooks: ServeTestHooks = {},
): Promise<RunningServer> {
  const data = openDataDir(config.dataDir, config.examplesDir ? { examplesDir: config.examplesDir } : {});
  // Read now, so a starter directory that cannot be read stops the start, not every later sign-up.
  await data.starters.load().catch((error: unknown) => {
    data.close();
    throw error;
  });
  // Blobs are local files: the API serves output links itself.
  const outputLinks = hmacOutputLinks(data.signingSecret);
  const safeFetch = createSafeFetch({
    allowlist: config.outboundAllowlist,
    ...(testHooks.lookup ? { lookup: testHooks.lookup } : {}),
  });
  const pool = createWorkerPool(
    config.workers,
    {
      databaseFile: data.paths.database,
      blobRoot: data.paths.blobs,
      outboundAllowlist: config.outboundAllowlist,
      memory: config.memory,
      ...(testHooks.trapOnDocumentKey ? { trapOnDocumentKey: testHooks.trapOnDocumentKey } : {}),
    },
    { backgroundThreads: config.spareThread },
  );
  const webhooks = createSqliteWebhookOutbox(data.db);
  // Callback bodies carry absolute links; the base is known once the server listens (renders are
  // only accepted, or recovered, after that).
  let linkBase = config.publicUrl?.replace(/\/+$/, "") ?? "";
  const outputHashes = new OutputHashes();
  const jobDeps: RenderJobDeps = {
    renders: data.renders,
    clock: data.clock,
    runTask: pool.run,
    recordingHash: (recording) => outputHashes.track(recording),
    discardOutput: (blobKey) => data.blobs.delete(blobKey),
    assetLinks: (asset) => assetLinksAt({ outputLinks, clock: data.clock }, linkBase, asset),
  };
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
    run: (id, accepted, admitted, interactive) =>
      runRenderJob(interactive ? interactiveJobDeps : jobDeps, id, accepted, admitted),
  });

  const batches = createSqliteBatchStore(data.db);
  const renderService = createRenderService({
    ...data,
    batches,
    checkUrl: (url) => safeFetch.check(url),
    dispatcher: createLocalDispatcher({ queue, renders: data.renders, ledger: data.ledger }),
  });

  const app = await buildApp(
    {
      ...data,
      outputLinks,
      renderService,
      safeFetch,
      webhooks,
      webhookSecrets: createSqliteWebhookSecretStore(data.db),
      batches,
      // An output's hash is recorded just after its render is answered: reads wait for it.
      assetLibrary: outputHashes.readsAfterHashes(data.assetLibrary),
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      openSignup: config.openSignup,
      onDemand: {
        imageUrls: createSqliteImageUrlStore(data.db),
        cacheMaxBytes: config.imageCacheMaxBytes,
        missesBurst: config.imageMissesBurst,
        missesPerSecond: config.imageMissesPerSecond,
        missWaitMs: config.imageMissWaitSeconds * 1000,
      },
    },
    {
      logger: logOptions(config),
      isUnavailable: isSqliteBusy,
      idempotencyStore: data.idempotency,
      rateLimit: { burst: config.rateLimitBurst, refillPerSecond: config.rateLimitPerSecond },
      authFailureLimit: {
        burst: config.authFailuresBurst,
        refillPerSecond: config.authFailuresPerSecond,
      },
      ...fileRouteOptions(config),
    },
  );
  const listening = await listen(app, config);
  linkBase ||= listening;

  // Only once the port is ours: a start that cannot listen must not use up the one showing of the
  // trial key (the next start would find the account and print none).
  let firstStart: RunningServer["firstStart"] = null;
  const isEmpty = data.db.prepare("SELECT COUNT(*) AS n FROM accounts").get()?.n === 0;
  if (isEmpty) firstStart = await createAccount(data, { name: "trial" });

  // Every attempt goes through the same SafeFetch as image fetches (allow-list from config); events
  // are signed with the account's current secret just before their first attempt.
  const deliverer = createWebhookDeliverer({
    outbox: webhooks,
    safeFetch,
    getSigningSecret: async (accountId) => {
      const secret = await data.accounts.webhookSecret(accountId);
      if (secret === null) throw new Error(`account ${accountId} has no webhook secret`);
      return secret;
    },
    clock: data.clock,
    random: Math.random,
    // A completed render's callback leaves within about this long when the outbox was idle.
    pollIntervalMs: 200,
    onError: (error) => app.log.error({ err: error }, "webhook delivery fault"),
  });
  // Events left pending or in flight by a previous process are due again (leases expire): resumed here.
  deliverer.start();

  // Renders accepted before a crash or restart: the renders table is the queue.
  const recovered = await queue.recover();
  if (recovered > 0) app.log.info({ recovered }, "re-enqueued renders accepted before the last stop");

  let closing: Promise<void> | null = null;
  return {
    url: config.publicUrl ?? listening,
    firstStart,
    workersReady: () => pool.ready(),
    renderThreads: pool.size,
    close() {
      closing ??= (async () => {
        // Stop taking requests and dispatching queued renders; finish the renders in flight (their
        // waiters get their answer), then release the workers and the database.
        await Promise.all([app.close(), queue.drain()]);
        // After the drain: callbacks of the renders that just finished are in the outbox; the
        // deliverer finishes the attempts in flight and leaves the rest for the next start.
        await deliverer.stop();
        await pool.close();
        data.close();
      })();
      return closing;
    },
  };
}
