import pg from "pg";
import { MIGRATIONS } from "./migrations.ts";

/** The version this build migrates a database to: its last numbered migration. */
export const POSTGRES_BUILD_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The schema version of the database at `url` (the last migration recorded in `pictor_migrations`),
 * read without migrating it: 0 for a database Pictor has not used yet. On one connection of its own,
 * so it is also the first thing to fail, with the driver's reason, when the database cannot be reached.
 */
export async function postgresSchemaVersion(url: string, applicationName: string): Promise<number> {
  const client = new pg.Client({
    connectionString: url,
    application_name: applicationName,
    // As the state pool (pool.ts): a database that does not answer fails in seconds.
    connectionTimeoutMillis: 10_000,
  });
  // A connection lost after connect() reports through the query in flight; unhandled it would crash.
  client.on("error", () => {});
  await client.connect();
  try {
    // Two statements: one naming a table that does not exist fails as a whole, whatever its CASE says.
    const table = await client.query("SELECT to_regclass('pictor_migrations') IS NOT NULL AS present");
    if (!table.rows[0]?.present) return 0;
    const { rows } = await client.query("SELECT COALESCE(max(version), 0) AS version FROM pictor_migrations");
    return Number(rows[0]?.version ?? 0);
  } finally {
    await client.end().catch(() => {});
  }
}
