import type { RenderRecord } from "./render-store.ts";

export interface RenderQueue {
  /** Called after `RenderStore.accept` committed; the row is already durable. */
  enqueue(renderId: string): void;
  /**
   * Resolves with the finished render, or null when it is still running at the deadline.
   */
  waitFor(accountId: string, renderId: string, timeoutMs: number): Promise<RenderRecord | null>;
}
