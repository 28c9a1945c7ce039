import { createSafeFetch } from "../adapters/fetch/safe-fetch.ts";
import { createLocalRenderQueue } from "../adapters/queue/local-render-queue.ts";
import { createWorkerPool } from "../adapters/queue/worker-pool.ts";
import { createAccount } from "../domain/accounts.ts";
import { buildApp } from "../http/app.ts";
import { runRenderJob } from "../jobs/render-job.ts";
import type { ServeConfig } from "./config.ts";
import { openDataDir } from "./data-dir.ts";

export interface RunningServer {
  url: string;
  /** Set only on the very first start of a data dir: the trial account's key (shown once). */
  firstStart: { accountId: string; apiKey: string } | null;
  /** Stop accepting, let in-flight renders finish, close everything. */
  close(): Promise<void>;
  /** Resolves once every render worker has loaded its engine. */
  workersReady(): Promise<void>;
}

/** Composition root of the API process on the embedded default (SQLite, files, in-process queue). */
export async function startServer(config: ServeConfig): Promise<RunningServer> {
  const data = openDataDir(config.dataDir, config.examplesDir ? { examplesDir: config.examplesDir } : {});
  const safeFetch = createSafeFetch({ allowlist: config.outboundAllowlist });
  const pool = createWorkerPool(config.workers, {
    databaseFile: data.paths.database,
    blobRoot: data.paths.blobs,
    outboundAllowlist: config.outboundAllowlist,
  });
  const queue = createLocalRenderQueue({
    renders: data.renders,
    concurrency: config.workers,
    run: (id) =>
      runRenderJob({ renders: data.renders, blobs: data.blobs, clock: data.clock, runTask: pool.run }, id),
  });

  let firstStart: RunningServer["firstStart"] = null;
  const isEmpty = data.db.prepare("SELECT COUNT(*) AS n FROM accounts").get()?.n === 0;
  if (isEmpty) firstStart = await createAccount(data, { name: "trial" });

  const app = await buildApp(
    {
      ...data,
      queue,
      safeFetch,
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      openSignup: config.openSignup,
    },
    {
      logger: {
        level: config.logLevel,
        // Standard output is for the one-time banner (URL, first key); logs go to standard error.
        stream: process.stderr,
        // Keys never reach the logs, whatever a future serializer decides to include.
        redact: {
          paths: ["req.headers.authorization", "headers.authorization", "*.api_key", "*.secret"],
          censor: "[redacted]",
        },
      },
      idempotencyStore: data.idempotency,
      rateLimit: { burst: config.rateLimitBurst, refillPerSecond: config.rateLimitPerSecond },
    },
  );
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const host = config.host.includes(":")
    ? `[${config.host}]`
    : config.host === "0.0.0.0"
      ? "127.0.0.1"
      : config.host;

  // Renders accepted before a crash or restart: the renders table is the queue.
  const recovered = await queue.recover();
  if (recovered > 0) app.log.info({ recovered }, "re-enqueued renders accepted before the last stop");

  let closing: Promise<void> | null = null;
  return {
    url: config.publicUrl ?? `http://${host}:${port}`,
    firstStart,
    workersReady: () => pool.ready(),
    close() {
      closing ??= (async () => {
        // Stop taking requests and dispatching queued renders; finish the renders in flight (their
        // waiters get their answer), then release the workers and the database.
        await Promise.all([app.close(), queue.drain()]);
        await pool.close();
        data.close();
      })();
      return closing;
    },
  };
}
