import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNodeRenderer } from "@pictor/render-node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSafeFetch } from "../../src/adapters/fetch/safe-fetch.ts";
import { createFileBlobStore } from "../../src/adapters/files/blob-store.ts";
import { createPgRenderLookups } from "../../src/adapters/postgres/render-lookups.ts";
import type { RenderTask } from "../../src/adapters/queue/render-messages.ts";
import { createRenderTaskRunner } from "../../src/adapters/queue/render-task-runner.ts";
import type { TemplateDocumentT } from "../../src/domain/document.ts";
import { closedPort, tinyTemplate } from "../callbacks/support.ts";
import { startHeldImage } from "../support/held-image.ts";

// A render thread whose database cannot be reached while it looks up a render's `asset://` image: the
// deployment's fault, so the task answers a retryable internal_error (the job runs again, and is failed
// and refunded as internal_error once its retries are spent), not the caller's image_fetch_failed,
// which the renderer's "image could not be loaded" would otherwise make of it. An image URL answering
// 404 stays image_fetch_failed. (The object store refusing a worker's credentials is tested end to end
// in scale/operations.test.ts.)
const dir = mkdtempSync(join(tmpdir(), "pictor-input-faults-"));
let images: Awaited<ReturnType<typeof startHeldImage>>;
let run: ReturnType<typeof createRenderTaskRunner>;
let lookups: ReturnType<typeof createPgRenderLookups>;

beforeAll(async () => {
  images = await startHeldImage();
  images.release();
  lookups = createPgRenderLookups(`postgres://pictor@127.0.0.1:${await closedPort()}/pictor`);
  run = createRenderTaskRunner({
    renderer: await createNodeRenderer(),
    lookups,
    blobs: createFileBlobStore(join(dir, "blobs")),
    assetBlobs: createFileBlobStore(join(dir, "blobs")),
    safeFetch: createSafeFetch({ allowlist: [`127.0.0.1:${images.port}`] }),
  });
});
afterAll(async () => {
  await lookups?.close();
  await images?.close();
  rmSync(dir, { recursive: true, force: true });
});

const task = (taskId: number, photo: string): RenderTask => ({
  taskId,
  accountId: "acc_faults",
  documentKey: "tpl_faults@1",
  ...(taskId === 1 ? { document: tinyTemplate() as unknown as TemplateDocumentT } : {}),
  frame: "main",
  values: { photo },
  scale: 1,
  format: "png",
  quality: null,
  outputKey: `renders/rnd_faults${taskId}.png`,
});

it("answers a retryable internal_error when the asset lookup cannot reach the database", async () => {
  const { result } = await run(task(1, "asset://ast_faults"));
  expect(result).toMatchObject({ ok: false, code: "internal_error", retryable: true });
});

it("answers image_fetch_failed, not retryable, for an image URL that answers 404", async () => {
  const { result } = await run(task(2, images.missingUrl));
  expect(result).toMatchObject({ ok: false, code: "image_fetch_failed" });
  expect(result).not.toHaveProperty("retryable");
});
