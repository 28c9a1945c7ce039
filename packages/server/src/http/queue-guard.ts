import type { RenderQueue } from "../ports/render-queue.ts";
import { ApiError } from "./errors.ts";

/** Before any check that could charge: a full or draining queue refuses new work with 503, nothing charged. */
export function refuseWhenQueueFull(queue: RenderQueue, incoming = 1): void {
  if (queue.isFull?.(incoming)) {
    throw new ApiError(
      "unavailable",
      "Too many renders are waiting; retry shortly.",
      {},
      { "Retry-After": "5" },
    );
  }
}
