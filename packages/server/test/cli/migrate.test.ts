import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, inject, it } from "vitest";
import { MIGRATIONS, migrate as migratePostgres } from "../../src/adapters/postgres/migrations.ts";
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

it.skipIf(testBackend() === "sqlite")(
  "builds an index CONCURRENTLY on PostgreSQL: writes to the table go on while the build waits",
  async () => {
    const databaseUrl = await newDatabase(inject("pictorPgS3").postgresUrl);
    const pool = createPgPool(databaseUrl, { max: 2 });
    const writer = createPgPool(databaseUrl, { max: 2 });
    try {
      // Migration 13 builds renders_account_queued. An open transaction that writes renders holds the
      // build back (a concurrent build waits for it; a plain one waits for a lock on the table).
      const queued = 13;
      expect(MIGRATIONS[queued - 1]).toMatchObject({
        concurrently: [{ createIndex: "renders_account_queued" }],
      });
      await migratePostgres(pool, queued - 1);
      const open = await writer.connect();
      await open.query("BEGIN");
      await open.query("LOCK TABLE renders IN ROW EXCLUSIVE MODE");
      const migrating = migratePostgres(pool, queued);
      const probe = await writer.connect();
      try {
        for (;;) {
          const { rows } = await probe.query(
            "SELECT 1 FROM pg_stat_activity WHERE query LIKE 'CREATE INDEX%renders_account_queued%' AND wait_event IS NOT NULL",
          );
          if (rows.length > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // Another writer still gets its lock at once: a plain CREATE INDEX's SHARE lock request
        // would queue it (lock_timeout would fail this).
        await probe.query("BEGIN");
        await probe.query("SET LOCAL lock_timeout = '2s'");
        await probe.query("LOCK TABLE renders IN ROW EXCLUSIVE MODE");
        await probe.query("COMMIT");
      } finally {
        probe.release();
        await open.query("COMMIT");
        open.release();
      }
      expect(await migrating).toEqual([queued]);
      const { rows } = await pool.query(
        "SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'renders_account_queued'",
      );
      expect(rows).toEqual([{ valid: true }]);
      // The rest, and again: nothing left to do.
      expect((await migratePostgres(pool)).at(-1)).toBe(POSTGRES_BUILD_SCHEMA_VERSION);
      expect(await migratePostgres(pool)).toEqual([]);
    } finally {
      await Promise.all([pool.end(), writer.end()]);
    }
  },
);

it.skipIf(testBackend() === "sqlite")(
  "drops an index a concurrent build left invalid and builds it again",
  async () => {
    const databaseUrl = await newDatabase(inject("pictorPgS3").postgresUrl);
    const pool = createPgPool(databaseUrl, { max: 1 });
    try {
      await migratePostgres(pool, 6);
      // As a CREATE INDEX CONCURRENTLY cut short leaves it: present, not valid.
      await pool.query("CREATE INDEX assets_blob_key ON assets(blob_key)");
      await pool.query(
        "UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'assets_blob_key'::regclass",
      );
      expect(await migratePostgres(pool, 7)).toEqual([7]);
      const { rows } = await pool.query(
        "SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'assets_blob_key'",
      );
      expect(rows).toEqual([{ valid: true }]);
    } finally {
      await pool.end();
    }
  },
);
