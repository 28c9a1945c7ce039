import pg from "pg";
import type { ColumnDecoding } from "../sql-rows.ts";

/** What a query needs: a pool, or the client of an open transaction (so helpers compose inside one). */
export type PgExecutor = Pick<pg.Pool | pg.PoolClient, "query">;

export interface PgPoolOptions {
  /** Connections this process may open; budget max_connections across all processes (docs/deploy.md). */
  max?: number;
  applicationName?: string;
}

export function createPgPool(url: string, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? "pictor",
    // A dead database should fail requests in seconds, not hang them behind the pool.
    connectionTimeoutMillis: 10_000,
  });
  // An idle client whose server connection drops emits 'error' on the pool; unhandled it would crash
  // the process. The next query on a fresh connection reports the fault where it matters.
  pool.on("error", () => {});
  return pool;
}

/**
 * Runs `fn` in one transaction on one connection: COMMIT when it returns, ROLLBACK when it throws.
 * READ COMMITTED plus explicit row locks (SELECT ... FOR UPDATE) where a read decides a write.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // A checked-out client has no 'error' listener (the pool's is for idle ones): a connection lost
  // mid-transaction (the database restarting) would throw from an event and end the process. The
  // queries in flight fail with the error, which is where it is handled.
  const onLost = () => {};
  client.on("error", onLost);
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.removeListener("error", onLost);
    client.release();
  }
}

/** timestamptz comes back as a Date; the ports carry ISO-8601 strings (the Clock's toISOString()). */
export const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
export const isoOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : iso(value);

/** PostgreSQL hands jsonb back parsed and timestamptz as `Date`. */
export const postgresColumns: ColumnDecoding = {
  json: <T>(value: unknown) => value as T,
  time: iso,
  timeOrNull: isoOrNull,
};
