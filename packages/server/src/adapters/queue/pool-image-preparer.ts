import type { EditorImagePreparer } from "../../ports/editor-image-preparer.ts";
import { openEditorImageFile } from "../files/editor-image-files.ts";
import type { WorkerPool } from "./worker-pool.ts";

/** What fits editor images: the render threads (worker-pool.ts) or the editor-image process. */
export type EditorImageThreads = Pick<WorkerPool, "size" | "prepareImage">;

/**
 * Editor images fitted on the render threads (never on the API's event loop or its share of libuv's
 * pool), each a task the pool places like a render, by the account's share of render time
 * (render-shares.ts): an account that asks for many large ones counts as the heaviest and is sent
 * to a background thread, whose decodes run one at a time. They wait rather than fail: an account
 * has one being fitted at a time, and all accounts together hold at most all render threads but one
 * (one on a single thread), so another account's render always finds a thread. Each image is written
 * to a file in `dir` and streamed from there (editor-image-files.ts).
 */
export function poolImagePreparer(pool: EditorImageThreads, dir: string): EditorImagePreparer {
  const atOnce = Math.max(1, pool.size - 1);
  const running = new Set<string>();
  const waiting: { accountId: string; start: () => void }[] = [];
  const pump = () => {
    for (let i = 0; i < waiting.length && running.size < atOnce; ) {
      const next = waiting[i] as (typeof waiting)[number];
      if (running.has(next.accountId)) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      running.add(next.accountId);
      next.start();
    }
  };
  return {
    async prepare(accountId, bytes, target, src) {
      await new Promise<void>((start) => {
        waiting.push({ accountId, start });
        pump();
      });
      try {
        const result = await pool.prepareImage({ accountId, bytes, target, src, dir });
        if (!result.ok) return { ok: false, code: result.code, message: result.message };
        const { width, height, file, upscaled } = result;
        const rgba = await openEditorImageFile(file, width * height * 4);
        return { ok: true, width, height, rgba, upscaled };
      } finally {
        running.delete(accountId);
        pump();
      }
    },
  };
}
