// A real worker pool over a fresh data directory (SQLite file and blob folder in a temp dir), started
// before a test file's tests and closed, with its directory removed, after them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createWorkerPool, type WorkerPool } from "../../src/adapters/queue/worker-pool.ts";
import { openDataDir } from "../../src/main/data-dir.ts";

export interface TempWorkerPool {
  /** Set once the pool's threads are ready (in beforeAll). */
  pool: WorkerPool;
  /** The blob store of the pool's data directory, to read what the workers wrote. */
  blobs: ReturnType<typeof openDataDir>["blobs"];
}

export function useTempWorkerPool(
  dirPrefix: string,
  threads: number,
  options?: Parameters<typeof createWorkerPool>[2],
): TempWorkerPool {
  const temp = {} as TempWorkerPool;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), dirPrefix));
    const data = openDataDir(dir);
    temp.blobs = data.blobs;
    temp.pool = createWorkerPool(
      threads,
      { databaseFile: data.paths.database, blobRoot: data.paths.blobs, outboundAllowlist: [] },
      options,
    );
    data.close();
    await temp.pool.ready();
  });
  afterAll(async () => {
    await temp.pool?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return temp;
}
