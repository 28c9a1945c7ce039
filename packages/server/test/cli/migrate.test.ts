import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, inject, it } from "vitest";
import { migrate as migratePostgres } from "../../src/adapters/postgres/migrations.ts";
import { createPgPool } from "../../src/adapters/postgres/pool.ts";
import { POSTGRES_BUILD_SCHEMA_VERSION } from "../../src/adapters/postgres/schema-version.ts";
import { migrate as migrateSqlite } from "../../src/adapters/sqlite/migrations.ts";
import { SQLITE_BUILD_SCHEMA_VERSION } from "../../src/adapters/sqlite/schema-version.ts";
import { newDatabase, testBackend } from "../api-pg/backend.ts";
import { killStillRunning, runPictor, scratchForPictor } from "./serve-process.ts";

// `pictor migrate` and `--check` on the database `pictor serve` uses: the data directory's SQLite
// file here, a fresh PostgreSQL database in the server-pg project (vitest.config.ts API_SUITE).
const { dir, children } = scratchForPictor("pictor-migrate-");
afterAll(() => killStillRunning(children));

interface Database {
  env: Record<string, string>;
  where: string;
  built: number;
  /** Migrated to `version` by this build's own migrations, as an older build left it. */
  migrateTo(version: number): Promise<void>;
  /** Marked as a newer build left it: one migration ahead of this build. */
  markAhead(): Promise<void>;
  version(): Promise<number>;
  close(): Promise<void>;
}

async function database(): Promise<Database> {
  const cwd = mkdtempSync(join(dir, "cwd-"));
  if (testBackend() === "sqlite") {
    const root = join(cwd, "data");
    mkdirSync(root);
    const db = new DatabaseSync(join(root, "pictor.db"));
    const pragma = (text: string) =>
      Number((db.prepare(text).get() as { user_version?: number })?.user_version);
    return {
      env: { PICTOR_DATA_DIR: root },
      where: `SQLite ${join(root, "pictor.db")}`,
      built: SQLITE_BUILD_SCHEMA_VERSION,
      migrateTo: async (version) => void migrateSqlite(db, version),
      markAhead: async () => void db.exec(`PRAGMA user_version = ${SQLITE_BUILD_SCHEMA_VERSION + 1}`),
      version: async () => pragma("PRAGMA user_version"),
      close: async () => db.close(),
    };
  }
  const services = inject("pictorPgS3");
  const databaseUrl = await newDatabase(services.postgresUrl);
  const url = new URL(databaseUrl);
  const pool = createPgPool(databaseUrl, { max: 1 });
  return {
    // The shared data directory holds blobs, so serve needs no S3 settings to get as far as the schema.
    env: { DATABASE_URL: databaseUrl, PICTOR_DATA_DIR: join(cwd, "data") },
    where: `PostgreSQL ${url.hostname}:${url.port}${url.pathname}`,
    built: POSTGRES_BUILD_SCHEMA_VERSION,
    migrateTo: async (version) => void (await migratePostgres(pool, version)),
    markAhead: async () =>
      void (await pool.query("INSERT INTO pictor_migrations (version) VALUES ($1)", [
        POSTGRES_BUILD_SCHEMA_VERSION + 1,
      ])),
    version: async () =>
      Number((await pool.query("SELECT max(version) AS v FROM pictor_migrations")).rows[0]?.v),
    close: () => pool.end(),
  };
}

it("--check fails a database one migration behind; pictor migrate brings it to this build's schema", async () => {
  const db = await database();
  const pictor = (args: string[]) => runPictor(args, { env: db.env, running: children });
  try {
    await db.migrateTo(db.built - 1);
    const behind = await pictor(["migrate", "--check"]);
    expect(behind.code).toBe(1);
    expect(behind.stdout).toBe(
      `${db.where} is at schema version ${db.built - 1}, behind this build's ${db.built}: run pictor migrate.\n`,
    );
    expect(await db.version()).toBe(db.built - 1);

    const migrated = await pictor(["migrate"]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toBe(
      `${db.where} migrated to schema version ${db.built} (applied ${db.built}).\n`,
    );
    expect(await db.version()).toBe(db.built);

    const current = await pictor(["migrate", "--check"]);
    expect(current.code).toBe(0);
    expect(current.stdout).toBe(`${db.where} is at schema version ${db.built}, this build's.\n`);
    const again = await pictor(["migrate"]);
    expect(again.stdout).toContain("nothing to do");
  } finally {
    await db.close();
  }
});

it("--check and migrate fail a database one migration ahead, and serve refuses to start on it", async () => {
  const db = await database();
  const pictor = (args: string[]) => runPictor(args, { env: db.env, running: children });
  try {
    await db.migrateTo(db.built);
    await db.markAhead();
    const ahead = await pictor(["migrate", "--check"]);
    expect(ahead.code).toBe(1);
    expect(ahead.stdout).toBe(
      `${db.where} is at schema version ${db.built + 1}, ahead of this build's ${db.built}: a newer Pictor upgraded it; run that version.\n`,
    );
    const refused = await pictor(["migrate"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `is at schema version ${db.built + 1}, newer than this build of Pictor knows`,
    );
    // An older build does not serve a newer schema: it says so and exits before listening.
    const serve = await pictor(["serve", "--port", "0", "--workers", "1"]);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain(`${db.where} is at schema version ${db.built + 1}, newer than this build`);
    expect(await db.version()).toBe(db.built + 1);
  } finally {
    await db.close();
  }
});
