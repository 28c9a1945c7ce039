import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

const WORKER = new URL("./sync-sql-worker.ts", import.meta.url);
const TIMEOUT_MS = 30_000;

/**
 * A synchronous `prepare(sql).get/all/run` over PostgreSQL, shaped like the node:sqlite handle the API
 * tests inspect rows with (`t.data.db`): a worker thread runs the query while this thread blocks on
 * Atomics.wait. `?` placeholders become `$n`; counts and sums come back as numbers; constraint
 * violations are reported in SQLite's words ("UNIQUE constraint failed", "CHECK constraint failed") so
 * the same assertions hold on both backends.
 */
export function openSyncSql(url: string) {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER, { workerData: { url, port: port2, signal }, transferList: [port2] });
  worker.unref();

  const query = (sql: string, params: unknown[]): Record<string, unknown>[] => {
    Atomics.store(signal, 0, 0);
    port1.postMessage({ sql: numberPlaceholders(sql), params });
    if (Atomics.wait(signal, 0, 0, TIMEOUT_MS) === "timed-out") throw new Error(`sync-sql timed out: ${sql}`);
    const reply = receiveMessageOnPort(port1)?.message as
      | { rows: Record<string, unknown>[]; error?: undefined }
      | { error: string }
      | undefined;
    if (!reply) throw new Error(`sync-sql: no reply for ${sql}`);
    if (reply.error !== undefined) throw new Error(reply.error);
    return reply.rows;
  };
  return {
    prepare: (sql: string) => ({
      get: (...params: unknown[]) => query(sql, params)[0],
      all: (...params: unknown[]) => query(sql, params),
      run: (...params: unknown[]) => {
        query(sql, params);
        return {};
      },
    }),
    close: () => {
      port1.close();
      void worker.terminate();
    },
  };
}

function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
