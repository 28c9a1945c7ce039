import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import type { Lookup } from "../../src/adapters/fetch/resolve-target.ts";
import { readServeConfig, type ServeFlags } from "../../src/main/config.ts";
import { type DataDir, openDataDir } from "../../src/main/data-dir.ts";
import { openScaledState } from "../../src/main/scaled-state.ts";
import { type RunningServer, type ServeTestHooks, startServer } from "../../src/main/serve.ts";
import { openSyncSql } from "./sync-sql.ts";

export interface PgS3Services {
  /** Superuser URL of the throwaway cluster's `postgres` database. */
  postgresUrl: string;
  s3: { endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string };
}

/**
 * Which backend the API test servers run on: the embedded default, or PostgreSQL + S3 when the
 * `server-pg` project sets PICTOR_TEST_BACKEND=postgres-s3 (read here only, never by src/).
 */
export const testBackend = (): "sqlite" | "postgres-s3" =>
  process.env.PICTOR_TEST_BACKEND === "postgres-s3" ? "postgres-s3" : "sqlite";

/**
 * `pictor serve` in-process (role all) on the chosen backend, plus a second connection to the same
 * state for the test (what the CLI would be on the embedded default). On PostgreSQL + S3 each server
 * gets a fresh database and its own key prefix; `data.db` is a synchronous SQL handle on that database
 * for the tests that inspect rows (sync-sql.ts).
 */
export async function startBackendServer(options: {
  flags: ServeFlags & { data: string };
  env: Record<string, string>;
  lookup?: Lookup;
  trapOnDocumentKey?: string;
}): Promise<{ server: RunningServer; data: DataDir; closeData(): Promise<void> }> {
  const hooks: ServeTestHooks = {
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.trapOnDocumentKey ? { trapOnDocumentKey: options.trapOnDocumentKey } : {}),
  };
  if (testBackend() === "sqlite") {
    const server = await startServer(readServeConfig(options.flags, options.env), hooks);
    const data = openDataDir(options.flags.data);
    return { server, data, closeData: async () => data.close() };
  }
  const services = inject("pictorPgS3");
  const databaseUrl = await newDatabase(services.postgresUrl);
  const config = readServeConfig(options.flags, {
    ...options.env,
    DATABASE_URL: databaseUrl,
    S3_ENDPOINT: services.s3.endpoint,
    S3_REGION: services.s3.region,
    S3_BUCKET: services.s3.bucket,
    S3_ACCESS_KEY_ID: services.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: services.s3.secretAccessKey,
    S3_PREFIX: `${databaseUrl.slice(databaseUrl.lastIndexOf("/") + 1)}/`,
    PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
    PICTOR_DB_POOL_MAX: "4",
  });
  if (config.backend.state !== "postgres") throw new Error("expected the PostgreSQL backend");
  const server = await startServer(config, hooks);
  const state = await openScaledState({ ...config, databasePoolMax: 4 }, config.backend);
  const db = openSyncSql(databaseUrl);
  const data = { ...state, db, paths: null } as unknown as DataDir;
  return {
    server,
    data,
    async closeData() {
      db.close();
      await state.close();
    },
  };
}

/** A fresh empty database on the run's cluster (test/api-pg/global-setup.ts), as a URL. */
export async function newDatabase(superuserUrl: string): Promise<string> {
  const name = `api_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return superuserUrl.replace(/\/[^/]*$/, `/${name}`);
}
