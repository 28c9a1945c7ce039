// The render thread's composition root: one renderer (engine, fonts) per thread, created once and
// reused for every task. The pool (adapters/queue/worker-pool.ts) starts this file as a worker thread.
import { parentPort, workerData } from "node:worker_threads";
import {
  collectGarbage,
  createNodeRenderer,
  type NodeRendererOptions,
  oneAtATime,
  runAtOnce,
} from "@pictor/render-node";
import { createSafeFetch } from "../adapters/fetch/safe-fetch.ts";
import { createFileBlobStore } from "../adapters/files/blob-store.ts";
import { createPgRenderLookups } from "../adapters/postgres/render-lookups.ts";
import { prepareEditorImageFile } from "../adapters/queue/editor-image-task.ts";
import type {
  PrepareImageTask,
  RenderTask,
  RenderWorkerData,
  WorkerMessage,
} from "../adapters/queue/render-messages.ts";
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

// A background thread's decodes and encodes run one at a time on the process's shared threads, which
// its lowered priority does not reach (docs/deploy.md, "Fairness between accounts").
const nativeWork = data.nice ? oneAtATime() : runAtOnce;
const renderer = await createNodeRenderer({
  nativeWork,
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
});

port.on("message", async (task: RenderTask | PrepareImageTask) => {
  if ("kind" in task) {
    const { result, bytes } = await prepareEditorImageFile(task, nativeWork);
    port.postMessage({ type: "prepared", result } satisfies WorkerMessage);
    // sharp's buffer is garbage once written, but this thread may allocate nothing that would
    // collect it for a while: a large one is collected at once.
    if (bytes >= LARGE_EDITOR_IMAGE_BYTES) setImmediate(collectGarbage);
    return;
  }
  const { result, sha256 } = await run(task);
  port.postMessage({ type: "result", result, ...(sha256 ? { sha256 } : {}) } satisfies WorkerMessage);
});
port.postMessage({ type: "ready" } satisfies WorkerMessage);

/**
 * Editor images from this size on are collected as soon as they are written (bytes): sixteen
 * 2000x2000 images (16 MB each) fitted one after another otherwise stayed in memory, 89 MB, until
 * the thread collected on its own.
 */
const LARGE_EDITOR_IMAGE_BYTES = 4 * 1024 * 1024;

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
