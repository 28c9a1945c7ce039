import { createSafeFetch } from "../adapters/fetch/safe-fetch.ts";
import { createEditorImageDir } from "../adapters/files/editor-image-files.ts";
import { lruMemoCache } from "../adapters/memory/lru-memo-cache.ts";
import { createPrometheusMetrics } from "../adapters/metrics/prometheus.ts";
import { setProcessLog } from "../adapters/process-log.ts";
import { editorImageProcess } from "../adapters/queue/editor-image-process.ts";
import { poolImagePreparer } from "../adapters/queue/pool-image-preparer.ts";
import { poolMeasurer } from "../adapters/queue/pool-measurer.ts";
import { createWorkerPool, type WorkerPool } from "../adapters/queue/worker-pool.ts";
import { createRenderService } from "../app/render-service.ts";
import { createFirstAccount } from "../domain/accounts.ts";
import { summariseRenders } from "../domain/operator-summary.ts";
import { buildApp } from "../http/app.ts";
import type { App } from "../http/app-types.ts";
import { assetLinksAt } from "../http/views.ts";
import { createWebhookDeliverer } from "../jobs/deliver-webhooks.ts";
import type { RenderJobDeps } from "../jobs/render-job.ts";
import { noMetrics } from "../ports/metrics.ts";
import { noTracing, type Tracing } from "../ports/tracing.ts";
import type { ServeConfig } from "./config.ts";
import { type HealthServer, startHealthServer } from "./health-server.ts";
import { createProcessLog } from "./process-log.ts";
import { createReadiness } from "./readiness.ts";
import { fileRouteOptions, listen, type RunningServer, type ServeTestHooks } from "./running-server.ts";
import type { ServeBackend } from "./serve-backend.ts";
import { pictorVersion } from "./version.ts";

export type { RunningServer, ServeTestHooks } from "./running-server.ts";

/**
 * The composition root of `pictor serve`, for every backend and role: the one place that turns
 * configuration into a running process. The backend (serve-sqlite.ts or serve-postgres.ts) says
 * where state lives and how renders reach render threads; everything else is wired here once.
 */
export async function startServer(
  config: ServeConfig,
  testHooks: ServeTestHooks = {},
): Promise<RunningServer> {
  const log = createProcessLog(config, testHooks.logStream);
  // In-process tests run several servers: the last one started names the faults of queues and jobs.
  setProcessLog(log);
  const backend = await openServeBackend(config);
  const { state } = backend;
  if (backend.serves) {
    // Read now, so a starter directory that cannot be read stops the start, not every later sign-up.
    await state.starters.load().catch(async (error: unknown) => {
      await backend.close();
      throw error;
    });
  }
  const safeFetch = createSafeFetch({
    allowlist: config.outboundAllowlist,
    ...(testHooks.lookup ? { lookup: testHooks.lookup } : {}),
  });
  // Callback bodies carry absolute links: the configured public URL (required for a worker), else
  // this process's own address once it listens (renders start only after that).
  let linkBase = config.publicUrl?.replace(/\/+$/, "") ?? "";
  const pool: WorkerPool | null = backend.renders
    ? createWorkerPool(
        config.workers,
        {
          ...backend.renderThreads,
          outboundAllowlist: config.outboundAllowlist,
          memory: config.memory,
          ...(testHooks.trapOnDocumentKey ? { trapOnDocumentKey: testHooks.trapOnDocumentKey } : {}),
        },
        // With the spare thread, every render thread but the last runs at background priority, in
        // both roles: the account that rendered the most lately goes there first (render-shares.ts).
        { backgroundThreads: config.spareThread },
      )
    : null;
  let deliverer: ReturnType<typeof createWebhookDeliverer> | null = null;
  const readiness = createReadiness(
    [
      ...backend.readinessChecks,
      ...(pool
        ? [
            {
              name: "render_threads",
              async check() {
                const threads = pool.threads();
                if (threads.ready === 0) throw new Error(`none of ${threads.size} render threads is up`);
              },
            },
          ]
        : []),
    ],
    log,
  );
  // PICTOR_METRICS=off: nothing counted, no /metrics (what the overhead benchmark compares against).
  const prometheus = config.metrics
    ? createPrometheusMetrics({
        role: config.role,
        version: pictorVersion(),
        backlog: backend.backlog,
        ready: async () => (await readiness.report()).ready,
        ...(pool ? { renderThreads: () => pool.threads() } : {}),
      })
    : null;
  const metrics = prometheus ?? noMetrics;
  const tracing = await startTracing(config);
  const operations = {
    readiness: () => readiness.report(),
    ...(prometheus ? { metrics: prometheus } : {}),
    ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
  };
  // Probes and scrapes of a process without the API (or moved off the API's port): up before the
  // render threads have loaded, so a starting worker reads not ready rather than nothing.
  const health: HealthServer | null =
    config.healthPort === undefined
      ? null
      : await startHealthServer(operations, { port: config.healthPort, host: config.host });
  const job: RenderJobDeps = {
    metrics,
    tracing,
    log: {
      info: (fields, message) => log.info(fields, message),
      debug: (fields, message) => log.debug(fields, message),
      warn: (fields, message) => log.warn(fields, message),
      // A worker's log says what it did; where the API answers for each render, its request line does.
      completedLevel: backend.serves ? "debug" : "info",
    },
    renders: state.renders,
    clock: state.clock,
    runTask: (task) => (pool as WorkerPool).run(task),
    assetLinks: (asset) => assetLinksAt(state, linkBase, asset),
  };
  const rendering = await backend.startRendering({
    pool,
    job,
    // Its callback was queued with its end: sent now rather than at the deliverer's next poll.
    onEnded: (ended) => {
      if (ended?.render.webhookUrl) deliverer?.wake();
    },
  });

  let app: App | null = null;
  // The editor's images: fitted on the render threads, or, in a process without them (the API-only
  // role), in a process of its own at background priority; either writes each to a file here, which
  // its answer streams.
  const editorImageDir = backend.serves ? createEditorImageDir() : null;
  const editorImageWorker = backend.serves && !pool ? editorImageProcess() : null;
  const editorImageThreads = pool ?? editorImageWorker;
  let url = "";
  let firstStart: RunningServer["firstStart"] = null;
  let stopWaiting = () => {};
  if (backend.serves && rendering.dispatcher) {
    const renderService = createRenderService({
      ...state,
      checkUrl: (target) => safeFetch.check(target),
      dispatcher: rendering.dispatcher,
      ...(pool ? { measurer: poolMeasurer(pool) } : {}),
      metrics,
      tracing,
      // Renders are refused above what one render thread's share of the memory budget leaves.
      renderBudgetBytes: config.memory.renderBytes,
      mp4Encoder: config.ffmpeg !== null,
    });
    stopWaiting = () => renderService.stopWaiting();
    app = await buildApp(
      {
        ...state,
        renderService,
        safeFetch,
        metrics,
        // The editor's images are fitted off the API's thread, on a render thread placed by the
        // account's share, or in the editor-image process.
        ...(editorImageDir && editorImageThreads
          ? { editorImages: poolImagePreparer(editorImageThreads, editorImageDir.dir) }
          : {}),
        ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
        openSignup: config.openSignup,
        storageQuotaBytes: config.storageQuotaBytes > 0 ? config.storageQuotaBytes : null,
        onDemand: {
          imageUrls: state.imageUrls,
          cacheMaxBytes: config.imageCacheMaxBytes,
          missesBurst: config.imageMissesBurst,
          missesPerSecond: config.imageMissesPerSecond,
          missWaitMs: config.imageMissWaitSeconds * 1000,
          caches: {
            // Published versions never change: parsed once per process.
            versions: lruMemoCache({ maxEntries: 256 }),
            // Outputs never change once stored; a miss reads a small one once for later hits.
            outputs: lruMemoCache<Uint8Array>({
              maxWeight: 64 * 1024 * 1024,
              weigh: (bytes) => bytes.byteLength,
            }),
          },
        },
      },
      {
        loggerInstance: log,
        operations,
        ...(config.operatorToken
          ? {
              adminPage: {
                token: config.operatorToken,
                summary: () => operatorSummary(backend),
              },
            }
          : {}),
        ...(prometheus
          ? {
              observeRequest: (method: string, route: string, status: number, seconds: number) =>
                prometheus.httpRequest(method, route, status, seconds),
            }
          : {}),
        tracing,
        isUnavailable: backend.isUnavailable,
        idempotencyStore: state.idempotency,
        rateLimit: { burst: config.rateLimitBurst, refillPerSecond: config.rateLimitPerSecond },
        authFailureLimit: { burst: config.authFailuresBurst, refillPerSecond: config.authFailuresPerSecond },
        ...fileRouteOptions(config),
      },
    );
    const listening = await listen(app, config);
    url = config.publicUrl ?? listening;
    linkBase ||= listening;
    if (backend.firstAccount === "trial") {
      // Only once the port is ours: a start that cannot listen must not use up the one showing of the
      // trial key (the next start would find the account and print none).
      firstStart = await createFirstAccount(state, { name: "trial" });
    } else if ((await state.accounts.list({ limit: 1, after: null })).length === 0) {
      log.warn(
        { first_account: "pictor accounts create --name <name>" },
        "no account yet: make the first one with `pictor accounts create --name <name>` (same DATABASE_URL and S3_* settings); it prints the account's API key once, to that command's output",
      );
    }
  }

  if (backend.renders) {
    // Every attempt goes through the same SafeFetch as image fetches (allow-list from config); events
    // are signed with the account's current secret just before their first attempt.
    deliverer = createWebhookDeliverer({
      outbox: state.webhooks,
      safeFetch,
      getSigningSecret: async (accountId) => {
        const secret = await state.accounts.webhookSecret(accountId);
        if (secret === null) throw new Error(`account ${accountId} has no webhook secret`);
        return secret;
      },
      clock: state.clock,
      random: Math.random,
      pollIntervalMs: backend.deliveryPollMs,
      onError: (error) => log.error({ err: error }, "webhook delivery fault"),
      onAttempt: (outcome, seconds) => metrics.webhookAttempt(outcome, seconds),
      tracing,
    });
    // Events left pending or in flight by a previous process are due again (leases expire): resumed here.
    deliverer.start();
  }
  const recovered = await rendering.start();
  if (recovered > 0) log.info({ recovered }, "re-enqueued renders accepted before the last stop");
  // Checked once now, not only when probed: a dependency that fails at start is logged with its reason.
  void readiness.report();

  let closing: Promise<void> | null = null;
  return {
    url,
    firstStart,
    workersReady: () => pool?.ready() ?? Promise.resolve(),
    renderThreads: pool?.size ?? 0,
    healthUrl: health?.url ?? null,
    log,
    drain() {
      if (!readiness.draining) log.info({}, "draining: not ready from now on");
      readiness.drain();
    },
    close() {
      closing ??= (async () => {
        readiness.drain();
        // Stop taking requests and renders; the renders in flight finish (their waiters get their
        // answer), then the callbacks in flight, then the threads and the connections.
        // Renders in flight here end first (their callers get the render); callers still waiting after
        // that (renders queued for another process or the next start) get 202 with the render's URL.
        const appClosed = app?.close();
        // Awaited below; a rejection meanwhile is not unhandled.
        appClosed?.catch(() => undefined);
        await rendering.stop().finally(() => stopWaiting());
        // What is still open now is a transfer (a download, an upload) or a client that stopped
        // reading or sending, which would hold the close forever: it gets the grace, then is cut.
        const cut = setTimeout(() => app?.server.closeAllConnections(), config.closeGraceSeconds * 1000);
        await appClosed;
        clearTimeout(cut);
        await deliverer?.stop();
        await pool?.close();
        await editorImageWorker?.close();
        editorImageDir?.remove();
        // The health port answers (503, draining) until the work above is done.
        await health?.close();
        await backend.close();
        // Last: the spans of everything above are sent before the process ends.
        await tracing.close();
      })();
      return closing;
    },
  };
}

/** The last hour's renders (among the latest accepted) and the backlog now, for /admin. */
async function operatorSummary(backend: ServeBackend) {
  const now = Date.now();
  const read = { limit: OPERATOR_PAGE_RENDERS };
  const [ended, queued, outboxPending] = await Promise.all([
    backend.endedRenders.endedSince(now - 60 * 60_000, read.limit),
    backend.backlog.queued(),
    backend.backlog.outboxPending(),
  ]);
  return summariseRenders(ended, now, 60, read, { queued, outboxPending });
}

/** The page reads at most this many of the latest renders (one index range, whatever the table's size). */
const OPERATOR_PAGE_RENDERS = 50_000;

/**
 * Traces only when configured (OTEL_EXPORTER_OTLP_*): the OpenTelemetry SDK is not even loaded
 * otherwise, and every span is the inert one.
 */
async function startTracing(config: ServeConfig): Promise<Tracing> {
  if (!config.tracing) return noTracing;
  const { createOtlpTracing } = await import("../adapters/tracing/opentelemetry.ts");
  return createOtlpTracing({ ...config.tracing, version: pictorVersion(), role: config.role });
}

/** Each backend's modules load only when it is chosen: pg, pg-boss and the S3 SDK cost the embedded process 43 MB. */
async function openServeBackend(config: ServeConfig): Promise<ServeBackend> {
  const backend = config.backend;
  switch (backend.state) {
    case "sqlite":
      return (await import("./serve-sqlite.ts")).openSqliteServe(config);
    case "postgres":
      return (await import("./serve-postgres.ts")).openPostgresServe(config, backend);
    default: {
      const unknown: never = backend;
      throw new Error(`unknown backend ${JSON.stringify(unknown)}`);
    }
  }
}
