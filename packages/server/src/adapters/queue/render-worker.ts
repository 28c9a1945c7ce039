// Worker thread entry: one renderer (engine, fonts) per thread, created once and reused for every task.
import { createHash } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import { restoreFontFamilyNames } from "@pictor/engine";
import { createNodeRenderer, type NodeRendererOptions } from "@pictor/render-node";
import { createSafeFetch } from "../fetch/safe-fetch.ts";
import { createAccountFontLoader } from "../sqlite/asset-fonts.ts";
import { accountAssetKey, createImageLoader, ImageLoadError } from "./image-loader.ts";
import {
  RENDER_FAULT_MESSAGE,
  type RenderTask,
  type RenderTaskFailure,
  type RenderTaskResult,
  type RenderWorkerData,
  type WorkerMessage,
} from "./render-messages.ts";
import { lowerOwnThreadPriority } from "./thread-priority.ts";
import { openWorkerBlobs, openWorkerLookups } from "./worker-lookups.ts";

const data = workerData as RenderWorkerData;
const port = parentPort;
if (!port) throw new Error("render-worker must run as a worker thread");
if (data.nice) lowerOwnThreadPriority(data.nice);

const blobs = openWorkerBlobs(data, { forOutputs: true });
const lookups = openWorkerLookups(data);
const loadImage = createImageLoader({
  blobKeyOf: lookups.blobKeyOf,
  blobs,
  safeFetch: createSafeFetch({ allowlist: data.outboundAllowlist }),
});
const renderer = await createNodeRenderer({
  ...(data.memory
    ? {
        cacheBytes: data.memory.preparedImageBytes,
        engineCacheBytes: { composedImages: data.memory.composedImageBytes },
      }
    : {}),
  ...(data.trapOnDocumentKey ? { beforeDraw: trapOn(data.trapOnDocumentKey) } : {}),
});
const withAccountFonts = createAccountFontLoader({
  facesOf: lookups.facesOf,
  blobs: openWorkerBlobs(data, { forOutputs: false }),
  engine: renderer,
});

// Documents by version key, as the pool sent them (worker-pool.ts decides what is held). The same
// object each time also lets the renderer skip validating it again.
const documents = new Map<string, NonNullable<RenderTask["document"]>>();

port.on("message", async (task: RenderTask) => {
  if (task.forgetDocuments) documents.clear();
  if (task.document) documents.set(task.documentKey, task.document);
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

/** The task's result and, when its output was stored, the output's bytes (to hash after answering). */
async function run(
  task: RenderTask,
): Promise<{ result: RenderTaskResult; output?: Uint8Array; sha256?: string }> {
  try {
    const pinned = documents.get(task.documentKey);
    if (!pinned) throw new Error(`render worker was not sent document ${task.documentKey}`);
    const { document, familyOf } = await withAccountFonts(task.accountId, pinned);
    const images = {
      loadImage: (src: string) => loadImage(task.accountId, src),
      // Assets are immutable: their prepared pixels can be reused without reading the blob again,
      // by renders of the account that owns them (the prepared-image cache is shared by all).
      sourceIdentity: (src: string) => accountAssetKey(task.accountId, src),
    };
    const quality = task.quality === null ? {} : { quality: task.quality };
    const out =
      task.format === "pdf"
        ? await renderer.renderPdf(document, {
            frames: task.pdf?.frames ?? [task.frame],
            dpi: task.pdf?.dpi,
            values: task.values,
            scale: task.scale,
            ...quality,
            ...(task.pdf ? { createdAt: new Date(task.pdf.createdAt) } : {}),
            ...images,
          })
        : await renderer.render(document, {
            frame: task.frame,
            values: task.values,
            scale: task.scale,
            format: task.format,
            ...quality,
            ...(task.queuedBehind ? { releaseEngineAfterDraw: true } : {}),
            ...images,
          });
    // Writing (and hashing) the output here keeps both off the API thread (a 600 KB PNG took about
    // 1 ms of SHA-256 there), and the bytes never cross threads.
    // S3 signs the payload's hash: computed once here, it serves the signature and the asset record.
    const sha256 = data.s3 ? createHash("sha256").update(out.bytes).digest("hex") : undefined;
    try {
      await blobs.put(task.outputKey, out.bytes, sha256 ? { sha256 } : {});
    } catch (error) {
      console.error(
        JSON.stringify({
          level: "error",
          msg: "render output not stored",
          err: String((error as Error)?.message ?? error),
        }),
      );
      const stored = failure(task, "internal_error", "The render's output could not be stored.");
      return { result: { ...stored, retryable: true } };
    }
    return {
      result: {
        taskId: task.taskId,
        ok: true,
        byteSize: out.bytes.byteLength,
        contentType: out.contentType,
        width: out.width,
        height: out.height,
        warnings: out.warnings.map((w) => ({
          code: w.code,
          slot: w.slot,
          message: restoreFontFamilyNames(w.message, familyOf),
        })),
      },
      output: out.bytes,
      ...(sha256 ? { sha256 } : {}),
    };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof ImageLoadError || code === "image_fetch_failed") {
      return { result: failure(task, "image_fetch_failed", (error as Error).message) };
    }
    if (code === "image_invalid") {
      return { result: failure(task, "image_invalid", (error as Error).message) };
    }
    // Faults are not echoed to the caller (they may hold paths); the message is generic.
    console.error(
      JSON.stringify({ level: "error", msg: "render failed", err: String((error as Error)?.stack ?? error) }),
    );
    return { result: failure(task, "internal_error", RENDER_FAULT_MESSAGE) };
  }
}

function failure(task: RenderTask, code: RenderTaskFailure["code"], message: string): RenderTaskFailure {
  return { taskId: task.taskId, ok: false, code, message };
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
