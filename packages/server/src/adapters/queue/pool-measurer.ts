import type { RenderMeasurer } from "../../ports/render-measurer.ts";
import type { WorkerPool } from "./worker-pool.ts";

/** Seconds a preflight refused for busy render threads is told to wait. */
const BUSY_RETRY_AFTER_S = 2;

/**
 * Preflight measurements on the render threads (never on the API's event loop): each one a render
 * task that draws and answers its warnings without encoding or storing anything. Nobody pays for
 * them, so they never hold every render thread (at most all but one, and one on a single thread)
 * and an account has one measuring at a time; beyond, the caller is told the threads are busy
 * (`unavailable`, retry shortly). The pool places them like renders, by the account's share of
 * render time (render-shares.ts), so an account that preflights a lot draws on a background thread.
 */
export function poolMeasurer(pool: WorkerPool): RenderMeasurer & { retryAfter: number } {
  const atOnce = Math.max(1, pool.size - 1);
  const measuring = new Set<string>();
  return {
    retryAfter: BUSY_RETRY_AFTER_S,
    async measure(request) {
      if (measuring.size >= atOnce || measuring.has(request.accountId)) {
        return {
          ok: false,
          code: "unavailable",
          message: measuring.has(request.accountId)
            ? "Another preflight of this account is being measured; retry shortly."
            : "The render threads are busy; retry the preflight shortly.",
        };
      }
      measuring.add(request.accountId);
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
        measuring.delete(request.accountId);
      }
    },
  };
}
