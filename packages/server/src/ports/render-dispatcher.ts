import type { AssetRecord } from "./asset-store.ts";
import type { RenderRecord } from "./render-store.ts";

/** A render that reached `completed` or `failed`, with its output asset when the dispatcher has it at hand. */
export interface FinishedRender {
  render: RenderRecord;
  /** Undefined: not at hand (read it by `render.assetId`); null: the render has no output. */
  asset?: AssetRecord | null;
}

/** How a submission ended: charged and on its way (as recorded), or refused for want of credits. */
export type Submission = { accepted: true; render: RenderRecord } | { accepted: false; balance: number };

/**
 * Where accepted renders go to be drawn: the embedded default's render threads, or the PostgreSQL
 * queue that worker processes take jobs from. Only the render service (app/render-service.ts) submits
 * and waits; every entry point (HTTP renders, batches, on-demand image URLs) goes through it.
 */
export interface RenderDispatcher {
  /**
   * Whether `incoming` more renders may be submitted now. False while the queue is over its bound or
   * the process is draining: the caller refuses new work (503) before anything is charged.
   */
  hasRoom(incoming: number): boolean;
  /**
   * Charges the render's credits, records it and sets it on its way, as one step: an accepted render
   * was charged and will be drawn; a refused one (the balance does not cover it) was neither.
   * `waiting`: a caller waits for the outcome, so the dispatcher may start the render before its
   * charge commits, and record it as `rendering` when it starts at once. The render as recorded is
   * returned (its status may differ from the one submitted). `traceparent`: the W3C trace context of
   * its acceptance, carried with the render to whichever process draws it (tracing on).
   */
  submit(render: RenderRecord, options: { waiting: boolean; traceparent?: string }): Promise<Submission>;
  /** Resolves with the finished render, or null when it is still running at the deadline. */
  /** `stop`: aborted when the process stops waiting for renders (shutdown); answers null then. */
  wait(
    accountId: string,
    renderId: string,
    timeoutMs: number,
    stop?: AbortSignal,
  ): Promise<FinishedRender | null>;
}
