import type { RenderMeasurer } from "../../ports/render-measurer.ts";
import type { WorkerPool } from "./worker-pool.ts";

/** Seconds a preflight refused for busy render threads is told to wait. */
const BUSY_RETRY_AFTER_S = 2;

/**
 * Preflight measurements on the render threads (never on the API's event loop): each one a render
 * task that draws and answers its warnings without encoding or storing anything. At most
 * `pool.capacity` at once, so preflights never hold more of the threads than that; beyond, the
 * caller is told the threads are busy (`unavailable`, retry shortly).
 */
export function poolMeasurer(pool: WorkerPool): RenderMeasurer & { retryAfter: number } {
  let running = 0;
  return {
    retryAfter: BUSY_RETRY_AFTER_S,
    async measure(request) {
      if (running >= pool.capacity) {
        return {
          ok: false,
          code: "unavailable",
          message: "The render threads are busy; retry the preflight shortly.",
        };
      }
      running++;
      try {
        const outcome = await pool.run({
          accountId: request.accountId,
          documentKey: request.documentKey,
          document: request.document,
          frame: request.frames[0] ?? "",
          ...(request.frames.length > 1
            ? { pdf: { frames: request.frames, dpi: 96, createdAt: new Date(0).toISOString() } }
            : {}),
          values: request.values,
          scale: request.scale,
          format: "png",
          quality: null,
          interactive: true,
          outputKey: "",
          measureOnly: true,
        });
        if (!outcome.ok) return { ok: false, code: outcome.code, message: outcome.message };
        return { ok: true, warnings: outcome.measured ?? [] };
      } finally {
        running--;
      }
    },
  };
}
