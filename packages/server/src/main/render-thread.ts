// The render thread's composition root: one renderer (engine, fonts) per thread, created once and
// reused for every task. The pool (adapters/queue/worker-pool.ts) starts this file as a worker thread.
import { createHash } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import { createNodeRenderer, type NodeRendererOptions } from "@pictor/render-node";
import { createSafeFetch } from "../adapters/fetch/safe-fetch.ts";
import { createFileBlobStore } from "../adapters/files/blob-store.ts";
import { createPgRenderLookups } from "../adapters/postgres/render-lookups.ts";
import type { RenderTask, RenderWorkerData, WorkerMessage } from "../adapters/queue/render-messages.ts";
import { createRenderTaskRunner } from "../adapters/queue/render-task-runner.ts";
import { lowerOwnThreadPriority } from "../adapters/queue/thread-priority.ts";
import { S3BlobStore } from "../adapters/s3/blob-store.ts";
import { createSqliteRenderLookups } from "../adapters/sqlite/render-lookups.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import type { RenderLookups } from "../ports/render-lookups.ts";

const data = workerData as RenderWorkerData;
const port = parentPort;
if (!port) throw new Error("render-thread.ts must run as a worker thread");
if (data.nice) lowerOwnThreadPriority(data.nice);

const renderer = await createNodeRenderer({
  ...(data.memory
    ? {
        cacheBytes: data.memory.preparedImageBytes,
        engineCacheBytes: { composedImages: data.memory.composedImageBytes },
      }
    : {}),
  ...(data.trapOnDocumentKey ? { beforeDraw: trapOn(data.trapOnDocumentKey) } : {}),
});
const run = createRenderTaskRunner({
  renderer,
  lookups: openLookups(data),
  blobs: openBlobs(data, { forOutputs: true }),
  assetBlobs: openBlobs(data, { forOutputs: false }),
  safeFetch: createSafeFetch({ allowlist: data.outboundAllowlist }),
  hashBeforeStore: data.s3 !== undefined,
});

port.on("message", async (task: RenderTask) => {
  const { result, output, sha256: hashed } = await run(task);
  // Hashed already (S3): in the same message, one wake-up of the main thread fewer per render.
  port.postMessage({ type: "result", result, ...(hashed ? { sha256: hashed } : {}) } satisfies WorkerMessage);
  // Else hashed after answering: the hash is recorded with the output's asset, but a waiting caller's
  // answer does not need it (0.2 ms for a 600 KB PNG). The next task's message waits meanwhile.
  if (output && !hashed) {
    const sha256 = createHash("sha256").update(output).digest("hex");
    port.postMessage({ type: "hashed", taskId: task.taskId, sha256 } satisfies WorkerMessage);
  }
});
port.postMessage({ type: "ready" } satisfies WorkerMessage);

/** Asset rows from the embedded default's SQLite file (read-only) or from PostgreSQL. */
function openLookups(from: RenderWorkerData): RenderLookups {
  if (from.postgresUrl) return createPgRenderLookups(from.postgresUrl);
  if (from.databaseFile) return createSqliteRenderLookups(from.databaseFile);
  throw new Error("a render thread needs databaseFile or postgresUrl");
}

/** The files store writes outputs blocking and in place: see FileBlobStoreOptions.renderOutputs. */
function openBlobs(from: RenderWorkerData, options: { forOutputs: boolean }): BlobStore {
  if (from.s3) return new S3BlobStore(from.s3);
  if (from.blobRoot) return createFileBlobStore(from.blobRoot, { renderOutputs: options.forOutputs });
  throw new Error("a render thread needs blobRoot or s3");
}
/**
 * Tests only: a draw of a document with this key leaves the CanvasKit instance as a WebAssembly trap
 * left it (no surface can be allocated any more) and throws the trap.
 */
function trapOn(documentKey: string): NonNullable<NodeRendererOptions["beforeDraw"]> {
  return (canvasKit, document) => {
    if (document.key !== documentKey) return;
    canvasKit.MakeRasterDirectSurface = () => null;
    throw new WebAssembly.RuntimeError("null function or function signature mismatch (test trap)");
  };
}
