import { mkdirSync } from "node:fs";
import { migrate as migratePostgres } from "../adapters/postgres/migrations.ts";
import { createPgPool } from "../adapters/postgres/pool.ts";
import { POSTGRES_BUILD_SCHEMA_VERSION, postgresSchemaVersion } from "../adapters/postgres/schema-version.ts";
import { openDatabase } from "../adapters/sqlite/database.ts";
import { SQLITE_BUILD_SCHEMA_VERSION, sqliteSchemaVersion } from "../adapters/sqlite/schema-version.ts";
import { BackendError, postgresLocation } from "./backend.ts";
import { dataDirFrom } from "./config.ts";
import { dataPaths } from "./data-dir.ts";

/** The database `pictor serve` would use with these settings: DATABASE_URL, else the data directory's SQLite file. */
export type SchemaTarget =
  | { kind: "sqlite"; description: string; root: string; file: string }
  | { kind: "postgres"; description: string; url: string };

export interface SchemaStatus {
  description: string;
  /** The version the database is at (0: never set up). */
  found: number;
  /** The version this build migrates to. */
  built: number;
}

/** Only the database is read: a schema command needs no object store, port or render threads. */
export function schemaTarget(
  flags: { data?: string },
  env: Record<string, string | undefined>,
): SchemaTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) return { kind: "postgres", description: `PostgreSQL ${postgresLocation(url)}`, url };
  const paths = dataPaths(dataDirFrom(flags.data, env));
  return { kind: "sqlite", description: `SQLite ${paths.database}`, root: paths.root, file: paths.database };
}

export async function schemaStatus(target: SchemaTarget): Promise<SchemaStatus> {
  if (target.kind === "sqlite") {
    const found = sqliteSchemaVersion(target.file);
    if (found === null) throw new BackendError(`${target.file} is not a SQLite database Pictor can read`);
    return { description: target.description, found, built: SQLITE_BUILD_SCHEMA_VERSION };
  }
  let found: number;
  try {
    found = await postgresSchemaVersion(target.url, "pictor-migrate");
  } catch (error) {
    throw new BackendError(
      `cannot reach ${target.description}: ${(error as Error).message || String(error)}. Check DATABASE_URL.`,
      { cause: error },
    );
  }
  return { description: target.description, found, built: POSTGRES_BUILD_SCHEMA_VERSION };
}

/**
 * Brings the database to this build's schema, each migration in its own transaction (SQLite) or all
 * in one under an advisory lock (PostgreSQL), as `pictor serve` does at start. A database newer than
 * this build is refused, untouched. Resolves with the versions applied.
 */
export async function migrateSchema(target: SchemaTarget): Promise<SchemaStatus & { applied: number[] }> {
  const before = await schemaStatus(target);
  if (before.found > before.built) {
    throw new BackendError(
      `${target.description} is at schema version ${before.found}, newer than this build of Pictor knows (${before.built}): a newer Pictor has upgraded it. Run that version (or a later one) instead.`,
    );
  }
  if (target.kind === "sqlite") {
    mkdirSync(target.root, { recursive: true });
    const db = openDatabase(target.file);
    db.close();
  } else {
    const pool = createPgPool(target.url, { max: 1, applicationName: "pictor-migrate" });
    try {
      await migratePostgres(pool);
    } finally {
      await pool.end();
    }
  }
  const after = await schemaStatus(target);
  const applied = Array.from({ length: after.found - before.found }, (_, i) => before.found + 1 + i);
  return { ...after, applied };
}
