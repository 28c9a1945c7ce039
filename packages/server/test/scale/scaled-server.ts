import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createAccount } from "../../src/domain/accounts.ts";
import { readServeConfig } from "../../src/main/config.ts";
import type { RunningServer } from "../../src/main/running-server.ts";
import { openScaledState } from "../../src/main/scaled-state.ts";
import { startServer } from "../../src/main/serve.ts";
import { publishTemplate } from "../api/support.ts";
import { tinyTemplate } from "../callbacks/support.ts";
import { type HeldImage, startHeldImage } from "../support/held-image.ts";
import type { ThrowawayPostgres } from "../support/postgres.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

/**
 * `pictor serve` in-process (one render thread) on a fresh data dir and a fresh PostgreSQL database,
 * as the outage tests need it, with the account an operator makes first (`pictor accounts create`'s
 * library function; the scaled mode creates none by itself): 30 credits, the 64x64 "tiny" template
 * published.
 */
export async function startScaledServer(
  dir: string,
  env: Record<string, string>,
): Promise<{ server: RunningServer; apiKey: string; accountId: string }> {
  const config = readServeConfig(
    { port: "0", data: dir, workers: "1", examples: join(dir, "none") },
    { PICTOR_LOG_LEVEL: "silent", ...env },
  );
  if (config.backend.state !== "postgres") throw new Error("expected DATABASE_URL (the scaled mode)");
  const server = await startServer(config);
  await server.workersReady();
  const state = await openScaledState(config, config.backend);
  const { apiKey, accountId } = await createAccount(state, { name: "first" }).finally(() => state.close());
  await publishTemplate(server, apiKey, tinyTemplate());
  return { server, apiKey, accountId };
}

export interface ScaledServerBehindProxy {
  /** The data dir (a fresh temporary directory). */
  dir: string;
  /** The server's database, reached directly (not through the proxy). */
  databaseUrl: string;
  /** Between the server and PostgreSQL: `cut()` is the outage, `restore()` its end. */
  proxy: TcpProxy;
  images: HeldImage;
  server: RunningServer;
  apiKey: string;
  accountId: string;
  /** A direct connection to the database, for what the test reads past the outage. */
  db: pg.Client;
  /** Releases the held image and the proxy, stops the server and removes the data dir. */
  close(): Promise<void>;
}

/**
 * The scaled server (startScaledServer) on a fresh database of `cluster`, reached through a TCP proxy a
 * test cuts to make PostgreSQL briefly unreachable, with a held image origin on the outbound
 * allowlist and queue supervision every second: the PostgreSQL outage tests' set-up.
 */
export async function startScaledServerBehindProxy(
  cluster: ThrowawayPostgres,
  prefix: string,
): Promise<ScaledServerBehindProxy> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let proxy: TcpProxy | undefined;
  let images: HeldImage | undefined;
  let server: RunningServer | undefined;
  let db: pg.Client | undefined;
  const close = async () => {
    images?.release();
    proxy?.restore();
    await server?.close();
    await db?.end();
    await proxy?.close();
    await images?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const databaseUrl = await cluster.newDatabase();
    const port = Number(new URL(databaseUrl).port);
    proxy = await startTcpProxy(port);
    images = await startHeldImage();
    const started = await startScaledServer(dir, {
      DATABASE_URL: databaseUrl.replace(`:${port}/`, `:${proxy.port}/`),
      PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${images.port}`,
      PICTOR_QUEUE_SUPERVISE_SECONDS: "1",
    });
    server = started.server;
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    return { ...started, dir, databaseUrl, proxy, images, db, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
