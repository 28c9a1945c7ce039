import { processLog } from "../adapters/process-log.ts";
import {
  RENDER_FAULT_MESSAGE,
  type RenderTask,
  type RenderTaskOutcome,
} from "../adapters/queue/render-messages.ts";
import { newAssetToken, newId, newOpaqueEtag } from "../domain/ids.ts";
import { buildCallbackEvent } from "../domain/webhooks/index.ts";
import type { AssetRecord } from "../ports/asset-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { RenderMetrics, RenderPhases } from "../ports/metrics.ts";
import type { FinishedRender } from "../ports/render-dispatcher.ts";
import type { RenderRecord, RenderStore } from "../ports/render-store.ts";
import { noTracing, type TraceSpan, type Tracing } from "../ports/tracing.ts";
import type { OutboxEventInput } from "../ports/webhook-outbox.ts";

const EXT = { png: "png", jpeg: "jpg", webp: "webp", pdf: "pdf", gif: "gif", mp4: "mp4" } as const;

export interface RenderJobDeps {
  renders: RenderStore;
  clock: Clock;
  runTask(task: Omit<RenderTask, "taskId">): Promise<RenderTaskOutcome>;
  /** Absolute links of an output asset, for the completion callback body (needs the public base URL). */
  assetLinks?(asset: AssetRecord): Promise<{ asset_url: string; output_url: string }>;
  /** Deletes the output of a render thrown away (started early, then refused: RenderQueue.startEarly). */
  discardOutput?(blobKey: string): Promise<void>;
  /** Told of each render's end; absent: nothing is counted. */
  metrics?: Pick<RenderMetrics, "completed" | "failed">;
  /** One line per render's end (completed at `completedLevel`, failed at warn); absent: none. */
  log?: RenderLog;
  /** The run as spans of the render's trace (queue wait, draw, encode, store, completion); absent: none. */
  tracing?: Tracing;
}

/** The part of the process's logger (pino) a render's end is written with. */
export interface RenderLog {
  info(fields: Record<string, unknown>, message: string): void;
  debug(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  /** A process that only renders logs each completed render at info; one that also serves, at debug. */
  completedLevel: "info" | "debug";
}

/**
 * Runs one accepted render to its end state. Idempotent, because the queue delivers at least once
 * (a restart re-runs `rendering` rows): the blob key derives from the render id, so a re-run
 * overwrites the same key, and complete/failAndRefund are no-ops on a finished render. The worker
 * writes the output blob before answering, so a completed row always has its file.
 * Resolves with the render as this run left it (for wait-mode requests: no need to read it back), or
 * null when there was nothing to do or another run finished it first.
 */
export async function runRenderJob(
  deps: RenderJobDeps,
  renderId: string,
  /** The render as accepted, when the caller holds it (RenderStore.claim need not read it back). */
  accepted?: RenderRecord,
  /**
   * Set when the render started before its acceptance committed (RenderQueue.startEarly): whether it
   * did. Nothing of the render's end is written before that is known.
   */
  admitted?: Promise<boolean>,
  /** The W3C trace context the render was queued under (its acceptance's span), when traced. */
  traceparent?: string,
): Promise<FinishedRender | null> {
  const tracing = deps.tracing ?? noTracing;
  const span = tracing.start("render.run", {
    kind: "consumer",
    parent: traceparent,
    attributes: { "pictor.render.id": renderId },
  });
  try {
    const ended = await runClaimed(deps, renderId, accepted, admitted, span, traceparent);
    span.end(ended?.render.status === "failed" ? { error: ended.render.error?.code ?? "failed" } : {});
    return ended;
  } catch (error) {
    span.end({ error: "retried" });
    throw error;
  }
}

async function runClaimed(
  deps: RenderJobDeps,
  renderId: string,
  accepted: RenderRecord | undefined,
  admitted: Promise<boolean> | undefined,
  span: TraceSpan,
  traceparent: string | undefined,
): Promise<FinishedRender | null> {
  const tracing = deps.tracing ?? noTracing;
  const job = await deps.renders.claim(renderId, accepted);
  if (!job) return null;
  const { render, document } = job;
  const startedMs = deps.clock.now().getTime();
  if (tracing.on) {
    span.set({ "pictor.render.format": render.format, "pictor.account.id": render.accountId });
    // From its acceptance to this claim: the time it spent in the queue.
    tracing
      .start("render.queue_wait", {
        kind: "internal",
        parent: traceparent || span,
        startMs: Date.parse(render.createdAt),
      })
      .end({ endMs: startedMs });
  }
  const ext = EXT[render.format];
  const blobKey = `renders/${render.id}.${ext}`;
  let result: RenderTaskOutcome;
  try {
    result = await deps.runTask({
      accountId: render.accountId,
      documentKey: `${render.templateId}@${render.templateVersion}`,
      document,
      frame: render.frame,
      ...(render.frames === null
        ? {}
        : { pdf: { frames: render.frames, dpi: render.dpi ?? 96, createdAt: render.createdAt } }),
      values: render.values,
      scale: render.scale,
      format: render.format,
      ...(render.animation ? { animated: true as const } : {}),
      quality: render.quality,
      ...(render.optimize === "size" ? { optimize: "size" as const } : {}),
      outputKey: blobKey,
    });
  } catch (error) {
    processLog().error({ render_id: renderId, err: error }, "render task crashed");
    result = { taskId: 0, ok: false, code: "internal_error", message: RENDER_FAULT_MESSAGE };
  }
  if (tracing.on) traceTask(tracing, span, startedMs, deps.clock.now().getTime(), result);
  if (admitted && !(await admitted)) {
    // Refused after all (the charge lost a race for the last credits): no row names this output.
    if (result.ok) await deps.discardOutput?.(blobKey);
    return null;
  }
  // Storage away for a moment: the queue runs the job again (with backoff), and gives it up in the end.
  if (!result.ok && result.retryable) throw new Error(`render ${renderId}: ${result.message}`);
  const endedAt = deps.clock.now();
  const at = endedAt.toISOString();
  const acceptedMs = Date.parse(render.createdAt);
  const phases: RenderPhases = {
    queueWait: Math.max(0, startedMs - acceptedMs) / 1000,
    total: Math.max(0, endedAt.getTime() - acceptedMs) / 1000,
    ...(result.ok && result.drawMs !== undefined ? { draw: result.drawMs / 1000 } : {}),
    ...(result.ok && result.encodeMs !== undefined ? { encode: result.encodeMs / 1000 } : {}),
    ...(result.ok && result.storeMs !== undefined ? { store: result.storeMs / 1000 } : {}),
  };
  if (!result.ok) {
    const error = { code: result.code, message: result.message };
    if (!(await deps.renders.failAndRefund(renderId, error, at))) return null;
    deps.metrics?.failed(render.format, result.code, render.creditsCharged, phases);
    deps.log?.warn(
      {
        render_id: render.id,
        format: render.format,
        code: result.code,
        credits_refunded: render.creditsCharged,
        duration_ms: Math.round(phases.total * 1000),
      },
      "render failed and refunded",
    );
    const failed = { ...render, status: "failed" as const, error, completedAt: at };
    return { render: { ...failed, creditsRefunded: render.creditsCharged }, asset: null };
  }
  const assetId = newId("ast");
  const asset: AssetRecord = {
    id: assetId,
    accountId: render.accountId,
    folder: `renders/${render.templateKey}/`,
    name: `${render.id}.${ext}`,
    contentType: result.contentType,
    byteSize: result.byteSize,
    width: result.width,
    height: result.height,
    blobKey,
    token: newAssetToken(),
    // Not derived from the bytes: an output never changes, so an ETag only has to be its own.
    etag: newOpaqueEtag(),
    metadata: render.metadata,
    tags: render.tags,
    renderId: render.id,
    createdAt: at,
  };
  // The render thread hashed the output before answering: recorded in the completion's own unit of
  // work, so a completed render's asset has its hash from the start.
  const sha256 = result.sha256;
  const completing = tracing.start("render.complete", { parent: span });
  const completed = await deps.renders.complete(renderId, {
    at,
    warnings: result.warnings,
    asset,
    ...(sha256 ? { sha256 } : {}),
    ...(render.webhookUrl && deps.assetLinks
      ? {
          callback: await completionCallback(
            render,
            render.webhookUrl,
            asset,
            result.warnings,
            deps.assetLinks,
            span.traceparent,
          ),
        }
      : {}),
  });
  completing.end();
  if (!completed) return null;
  deps.metrics?.completed(render.format, phases);
  if (deps.log) {
    deps.log[deps.log.completedLevel](
      {
        render_id: render.id,
        format: render.format,
        bytes: result.byteSize,
        queue_ms: Math.round(phases.queueWait * 1000),
        draw_ms: result.drawMs === undefined ? undefined : Math.round(result.drawMs),
        encode_ms: result.encodeMs === undefined ? undefined : Math.round(result.encodeMs),
        store_ms: result.storeMs === undefined ? undefined : Math.round(result.storeMs),
        duration_ms: Math.round(phases.total * 1000),
      },
      "render completed",
    );
  }
  return {
    render: { ...render, status: "completed", assetId, warnings: result.warnings, completedAt: at },
    asset,
  };
}

/**
 * Ends a render the queue gave up on (its job's retries are spent): failed with `internal_error` and
 * refunded exactly once; a no-op if it finished after all. Without this it would stay `rendering`,
 * charged, for ever.
 */
export async function giveUpRenderJob(
  deps: Pick<RenderJobDeps, "renders" | "clock">,
  renderId: string,
): Promise<void> {
  const ended = await deps.renders.failAndRefund(
    renderId,
    { code: "internal_error", message: RENDER_FAULT_MESSAGE },
    deps.clock.now().toISOString(),
  );
  if (ended) {
    processLog().error({ render_id: renderId, code: "internal_error" }, "render given up after its retries");
  }
}

/** The callback's bytes are fixed here, once, and stored with the completion (docs/webhooks.md). */
async function completionCallback(
  render: RenderRecord,
  url: string,
  asset: AssetRecord,
  warnings: readonly unknown[],
  links: NonNullable<RenderJobDeps["assetLinks"]>,
  traceparent: string,
): Promise<OutboxEventInput> {
  const completedAt = Date.parse(asset.createdAt);
  const { output_url, asset_url } = await links(asset);
  const event = buildCallbackEvent({
    id: render.id,
    template: render.templateKey,
    output_url,
    asset_url,
    width: asset.width ?? render.width,
    height: asset.height ?? render.height,
    credits_charged: render.creditsCharged,
    ...(render.frames === null ? {} : { pages: render.frames.length }),
    warnings,
    completed_at: completedAt,
  });
  return {
    ...event,
    account_id: render.accountId,
    render_id: render.id,
    url,
    created_at: completedAt,
    ...(render.requestId ? { request_id: render.requestId } : {}),
    ...(traceparent ? { traceparent } : {}),
  };
}

/**
 * The render thread's task as a span, with its draw, encode and store as children. The thread
 * measures the three; they ran one after the other and the thread answered once the output was
 * stored, so they are laid back to back ending at the answer (the time before them is the thread's
 * queue and the message passing).
 */
function traceTask(
  tracing: Tracing,
  parent: TraceSpan,
  startMs: number,
  endMs: number,
  result: RenderTaskOutcome,
): void {
  const task = tracing.start("render.task", { parent, startMs });
  if (!result.ok) {
    task.end({ error: result.code, endMs });
    return;
  }
  task.set({ "pictor.render.bytes": result.byteSize });
  let at = endMs;
  const steps: [string, number | undefined][] = [
    ["render.store", result.storeMs],
    ["render.encode", result.encodeMs],
    ["render.draw", result.drawMs],
  ];
  for (const [name, ms] of steps) {
    if (ms === undefined) continue;
    tracing.start(name, { parent: task, startMs: at - ms }).end({ endMs: at });
    at -= ms;
  }
  task.end({ endMs });
}
