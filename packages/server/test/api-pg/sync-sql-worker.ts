import { type MessagePort, workerData } from "node:worker_threads";
import pg from "pg";

const { url, port, signal } = workerData as { url: string; port: MessagePort; signal: Int32Array };

// SQLite answers COUNT and SUM as numbers; PostgreSQL's bigint and numeric arrive as strings.
const builtIn = pg.types.getTypeParser as (oid: number, format?: string) => unknown;
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === 20 || oid === 1700 ? (v: string) => Number(v) : builtIn(oid, format),
};
const client = new pg.Client({ connectionString: url, types } as unknown as pg.ClientConfig);
const connected = client.connect();

port.on("message", async ({ sql, params }: { sql: string; params: unknown[] }) => {
  let reply: unknown;
  try {
    await connected;
    const { rows } = await client.query(sql, params);
    reply = { rows };
  } catch (error) {
    reply = { error: inSqliteWords(error as Error & { code?: string; constraint?: string }) };
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});

function inSqliteWords(error: Error & { code?: string; constraint?: string }): string {
  if (error.code === "23505") return `UNIQUE constraint failed: ${error.constraint} (${error.message})`;
  if (error.code === "23514") return `CHECK constraint failed: ${error.constraint} (${error.message})`;
  return error.message;
}
