import type { AssetRecord } from "./asset-store.ts";
import type { RenderRecord } from "./render-store.ts";

/** A render that reached `completed` or `failed`, with its output asset when the queue has it at hand. */
export interface FinishedRender {
  render: RenderRecord;
  /** Undefined: not at hand (read it by `render.assetId`); null: the render has no output. */
  asset?: AssetRecord | null;
}

export interface RenderQueue {
  /**
   * Called after `RenderStore.accept` committed; the row is already durable. `accountId` lets a
   * queue share workers fairly between accounts. `accepted`: the record just inserted, which a queue
   * running the render in this process may hand to `RenderStore.claim`.
   */
  enqueue(renderId: string, accountId: string, accepted?: RenderRecord): void;
  /**
   * True while the queue cannot take `incoming` more renders (default 1; a batch asks for its rows):
   * new work gets 503 `unavailable` before any charge.
   */
  isFull?(incoming?: number): boolean;
  /**
   * True when a render of this account enqueued now would start at once (a free worker, the account
   * under its caps, and nothing waiting that could start instead): the render may then be accepted as
   * `rendering`, which spares the claim a write of its own.
   */
  startsAtOnce?(accountId: string): boolean;
  /**
   * Starts a render that `startsAtOnce` just said would start, before its acceptance commits (see
   * EarlyStart in domain/renders.ts). Resolves once the render is on its way to a worker, or with
   * null when it cannot start now after all. The function it resolves with must be told whether the
   * acceptance committed: until then the render's end is not written, and if it did not, the render
   * is thrown away, output and all. A later `enqueue` of it is a no-op.
   */
  startEarly?(render: RenderRecord): Promise<((admitted: boolean) => void) | null>;
  /**
   * Resolves with the finished render, or null when it is still running at the deadline.
   */
  waitFor(accountId: string, renderId: string, timeoutMs: number): Promise<FinishedRender | null>;
}
