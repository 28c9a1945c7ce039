import { createHash } from "node:crypto";
import { restoreFontFamilyNames } from "@pictor/engine";
import type { NodeRenderer } from "@pictor/render-node";
import type { BlobStore } from "../../ports/blob-store.ts";
import type { RenderLookups } from "../../ports/render-lookups.ts";
import type { SafeFetch } from "../../ports/safe-fetch.ts";
import { processLog } from "../process-log.ts";
import { createAccountFontLoader } from "./account-font-loader.ts";
import { accountAssetKey, createImageLoader, ImageLoadError } from "./image-loader.ts";
import { inputStoreFaultIn } from "./input-store-fault.ts";
import {
  RENDER_FAULT_MESSAGE,
  type RenderTask,
  type RenderTaskFailure,
  type RenderTaskResult,
} from "./render-messages.ts";

/** A task's result and, when its output was stored, the output's SHA-256 (lowercase hex). */
export interface RenderTaskRun {
  result: RenderTaskResult;
  sha256?: string;
}

/**
 * Runs render tasks inside a render thread: the pinned document with the account's fonts, images
 * through the account-scoped loader, the output hashed and written to the blob store. Faults are
 * logged here and answered with a generic message.
 */
export function createRenderTaskRunner(deps: {
  renderer: NodeRenderer;
  lookups: RenderLookups;
  /** Where outputs are written. */
  blobs: BlobStore;
  /** Where asset files (images, fonts) are read. */
  assetBlobs: BlobStore;
  safeFetch: SafeFetch;
}) {
  const { renderer, blobs } = deps;
  const loadImage = createImageLoader({
    blobKeyOf: deps.lookups.blobKeyOf,
    blobs,
    safeFetch: deps.safeFetch,
  });
  const withAccountFonts = createAccountFontLoader({
    facesOf: deps.lookups.facesOf,
    blobs: deps.assetBlobs,
    engine: renderer,
  });
  // Documents by version key, as the pool sent them (worker-pool.ts decides what is held). The same
  // object each time also lets the renderer skip validating it again.
  const documents = new Map<string, NonNullable<RenderTask["document"]>>();

  return async function run(task: RenderTask): Promise<RenderTaskRun> {
    if (task.forgetDocuments) documents.clear();
    if (task.document) documents.set(task.documentKey, task.document);
    try {
      const pinned = documents.get(task.documentKey);
      if (!pinned) throw new Error(`render worker was not sent document ${task.documentKey}`);
      const { document, familyOf } = await withAccountFonts(task.accountId, pinned);
      const images = {
        loadImage: (src: string) => loadImage(task.accountId, src),
        // Assets are immutable: their prepared pixels can be reused without reading the blob again,
        // by renders of the account that owns them (the prepared-image cache is shared by all).
        sourceIdentity: (src: string) => accountAssetKey(task.accountId, src),
        // Images from URLs are cached by their bytes, per account like every shared cache.
        contentScope: task.accountId,
      };
      if (task.measureOnly) {
        const { warnings } = await renderer.measure(document, {
          frames: task.pdf?.frames ?? [task.frame],
          values: task.values,
          scale: task.scale,
          ...images,
        });
        const restore = (text: string) => restoreFontFamilyNames(text, familyOf);
        const measured = warnings.map((w) => ({
          code: w.code,
          slot: w.slot,
          layer: w.layer,
          message: restore(w.message),
          ...(w.details
            ? {
                details: Object.fromEntries(
                  Object.entries(w.details).map(([k, v]) => [k, typeof v === "string" ? restore(v) : v]),
                ),
              }
            : {}),
        }));
        return {
          result: {
            taskId: task.taskId,
            ok: true,
            byteSize: 0,
            contentType: "",
            width: 0,
            height: 0,
            warnings: [],
            measured,
          },
        };
      }
      const quality = task.quality === null ? {} : { quality: task.quality };
      const drawStarted = performance.now();
      const out =
        task.animated === true && task.format !== "pdf" && task.format !== "png" && task.format !== "jpeg"
          ? await renderer.renderAnimation(document, {
              frame: task.frame,
              values: task.values,
              scale: task.scale,
              format: task.format,
              ...quality,
              ...images,
            })
          : task.format === "pdf"
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
                // gif and mp4 are always animated (prepareRender), so a still is one of these.
                format: task.format as "png" | "jpeg" | "webp",
                ...quality,
                ...(task.optimize === "size" ? { pngOptimize: "size" as const } : {}),
                ...(task.queuedBehind ? { releaseEngineAfterDraw: true } : {}),
                ...images,
              });
      // Writing and hashing the output here keeps both off the API thread (a 600 KB PNG took about
      // 1 ms of SHA-256 there), and the bytes never cross threads. Hashed before answering (about
      // 0.2 ms for a 350 KB PNG): the hash travels with the result and is recorded in the completion's
      // transaction, where hashing after answering cost the API thread a second message and a second
      // database write per render. S3 signs the payload's hash: the same one serves the signature.
      const storeStarted = performance.now();
      const sha256 = createHash("sha256").update(out.bytes).digest("hex");
      try {
        await blobs.put(task.outputKey, out.bytes, { sha256 });
      } catch (error) {
        processLog().error(
          { output: task.outputKey, err: String((error as Error)?.message ?? error) },
          "render output not stored",
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
          ...("encodeMs" in out
            ? { drawMs: storeStarted - drawStarted - out.encodeMs, encodeMs: out.encodeMs }
            : { drawMs: storeStarted - drawStarted }),
          storeMs: performance.now() - storeStarted,
          warnings: out.warnings.map((w) => ({
            code: w.code,
            slot: w.slot,
            message: restoreFontFamilyNames(w.message, familyOf),
          })),
        },
        sha256,
      };
    } catch (error) {
      // Checked first: the renderer reports any loader error as the image's (image_fetch_failed).
      const storeFault = inputStoreFaultIn(error);
      if (storeFault) {
        processLog().error(
          { output: task.outputKey, err: storeFault.message },
          "render inputs unreadable (database or object store); the job will run again",
        );
        return { result: { ...failure(task, "internal_error", RENDER_FAULT_MESSAGE), retryable: true } };
      }
      const code = (error as { code?: unknown }).code;
      if (error instanceof ImageLoadError || code === "image_fetch_failed") {
        return { result: failure(task, "image_fetch_failed", (error as Error).message) };
      }
      if (code === "image_invalid") {
        return { result: failure(task, "image_invalid", (error as Error).message) };
      }
      // Faults are not echoed to the caller (they may hold paths); the message is generic.
      processLog().error({ output: task.outputKey, err: error }, "render failed");
      return { result: failure(task, "internal_error", RENDER_FAULT_MESSAGE) };
    }
  };
}

function failure(task: RenderTask, code: RenderTaskFailure["code"], message: string): RenderTaskFailure {
  return { taskId: task.taskId, ok: false, code, message };
}
