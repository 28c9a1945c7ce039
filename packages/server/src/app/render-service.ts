import {
  type BatchRequest,
  type BatchRowOutcome,
  batchRowFingerprint,
  batchRowKeyScope,
  errorBody,
} from "../domain/batches.ts";
import { type Failure, fail, type Result } from "../domain/failure.ts";
import { newId } from "../domain/ids.ts";
import { type PrepareRenderDeps, prepareRender, type RenderRequest } from "../domain/renders.ts";
import type { BatchHeader, BatchRecord, BatchRowRecord, BatchStore } from "../ports/batch-store.ts";
import {
  IDEMPOTENCY_LIMITS,
  type IdempotencyScope,
  type IdempotencyStore,
} from "../ports/idempotency-store.ts";
import type { RenderMetrics, RenderMode } from "../ports/metrics.ts";
import type { FinishedRender, RenderDispatcher } from "../ports/render-dispatcher.ts";
import type { MeasuredWarning, RenderMeasurer } from "../ports/render-measurer.ts";
import type { RenderRecord, RenderStore } from "../ports/render-store.ts";
import type { TemplateStore } from "../ports/template-store.ts";
import { noTracing, type TraceSpan, type Tracing } from "../ports/tracing.ts";
import { settleWhenReachable } from "./idempotency-settlements.ts";

/** Seconds a caller refused for a full queue is told to wait before retrying. */
const FULL_QUEUE_RETRY_AFTER_S = 5;

export interface RenderServiceDeps extends PrepareRenderDeps {
  renders: Pick<RenderStore, "get" | "findByIdempotencyKey">;
  batches: BatchStore;
  dispatcher: RenderDispatcher;
  /** The Idempotency-Key header's store: batch rows' own keys are claimed there too (own namespace). */
  idempotency: IdempotencyStore;
  /** Told of every render accepted (charged); absent: nothing is counted. */
  metrics?: Pick<RenderMetrics, "accepted">;
  /** Draws preflights on render threads; absent in a process without them (preflight then checks only). */
  measurer?: RenderMeasurer;
  /** Acceptance and charge as spans of the request's trace; absent: none. */
  tracing?: Tracing;
}

/**
 * A render checked and measured but not accepted: `render` is what would be charged and drawn (never
 * stored), `warnings` what drawing it reported, or null when this process has no render threads.
 */
export interface Preflight {
  render: RenderRecord;
  warnings: MeasuredWarning[] | null;
}

export interface SubmitOptions {
  /** A caller waits for the outcome (a wait-mode request, an image URL). */
  waiting: boolean;
  idempotencyKey?: string;
  /** A published version to render instead of the latest (on-demand image URLs pin one with `v`). */
  version?: number;
  /** How it was asked for, when not by POST /v1/renders (wait or async): for the metrics. */
  mode?: RenderMode;
  /** The X-Request-Id of the request asking for it: kept with the render, sent with its callback. */
  requestId?: string;
  /** The span of the request asking for it: the render's trace continues it. */
  trace?: TraceSpan;
}

/**
 * The one render path. Every way in (POST /v1/renders, batches, on-demand image URLs, and any later
 * one) accepts renders here: room in the dispatcher → validation (domain/renders.ts) → charge,
 * record and dispatch as one step (RenderDispatcher.submit) → wait. Nothing else submits to or waits
 * on the dispatcher.
 */
export interface RenderService {
  /** Accepts one render: charged and on its way, or the failure (nothing charged). */
  submit(accountId: string, request: RenderRequest, options: SubmitOptions): Promise<Result<RenderRecord>>;
  /**
   * Accepts a batch row by row (each validated and charged on its own), or refuses it whole with
   * `unavailable` when the dispatcher has no room for every row. `resume`: the batch the same request
   * began before its process died, completed instead of begun again.
   */
  submitBatch(
    accountId: string,
    batch: BatchRequest,
    options: { idempotencyKey?: string; resume?: BatchRecord; requestId?: string; trace?: TraceSpan },
  ): Promise<Result<{ batch: BatchRecord; outcomes: BatchRowOutcome[] }>>;
  /**
   * Everything a render of this request would go through before drawing (validation, cost, assets,
   * size), then the draw on a render thread, without a charge, an output or a record: the failure a
   * render would get, or what it would cost and report.
   */
  preflight(accountId: string, request: RenderRequest): Promise<Result<Preflight>>;
  /** The finished render, or null while it is still running at the deadline (or after stopWaiting). */
  wait(accountId: string, renderId: string, timeoutMs: number): Promise<FinishedRender | null>;
  /**
   * Shutdown: every wait, now and later, answers null at once (the caller gets 202 with the render's
   * URL), instead of holding the process for up to the wait's 60 s while the render is queued for
   * another process or the next start.
   */
  stopWaiting(): void;
  /** False once stopWaiting was called: a loop of waits must end then, not spin on instant nulls. */
  waiting(): boolean;
}

const queueFull = (): Failure => ({
  ...fail("unavailable", "Too many renders are waiting; retry shortly."),
  retryAfter: FULL_QUEUE_RETRY_AFTER_S,
});

export function createRenderService(deps: RenderServiceDeps): RenderService {
  const { dispatcher } = deps;
  const stopped = new AbortController();
  const tracing = deps.tracing ?? noTracing;
  // A row key given up while its store was unreachable (the row failed in a database outage) is
  // freed once the store answers again, not left claimed until its lock times out.
  const batchDeps: RenderServiceDeps = {
    ...deps,
    idempotency: settleWhenReachable(deps.idempotency, { lockTimeoutMs: IDEMPOTENCY_LIMITS.lockTimeoutMs }),
  };

  /**
   * Charges and dispatches a prepared render: the render as recorded, or `insufficient_credits`. The
   * charge is a span under `trace`; its context goes with the render to the process that draws it.
   */
  async function dispatch(
    render: RenderRecord,
    waiting: boolean,
    mode: RenderMode,
    trace?: TraceSpan,
  ): Promise<Result<RenderRecord>> {
    const charge = tracing.start("render.charge", {
      kind: "producer",
      parent: trace,
      attributes: { "pictor.render.id": render.id, "pictor.render.credits": render.creditsCharged },
    });
    let submitted: Awaited<ReturnType<RenderDispatcher["submit"]>>;
    try {
      submitted = await dispatcher.submit(render, {
        waiting,
        ...(charge.traceparent ? { traceparent: charge.traceparent } : {}),
      });
    } catch (error) {
      charge.end({ error: "internal_error" });
      throw error;
    }
    charge.end(submitted.accepted ? {} : { error: "insufficient_credits" });
    if (submitted.accepted) {
      deps.metrics?.accepted(render.format, mode, render.creditsCharged);
      return { ok: true, value: submitted.render };
    }
    return fail(
      "insufficient_credits",
      `This render costs ${render.creditsCharged} credits; the balance is ${submitted.balance}.`,
      { required: render.creditsCharged, balance: submitted.balance },
    );
  }

  return {
    async submit(accountId, request, options) {
      if (!dispatcher.hasRoom(1)) return queueFull();
      const mode = options.mode ?? (options.waiting ? "wait" : "async");
      const span = tracing.start("render.accept", {
        parent: options.trace,
        attributes: { "pictor.render.mode": mode, "pictor.account.id": accountId },
      });
      try {
        const prepared = await prepareRender(deps, accountId, request, {
          ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
          ...(options.version !== undefined ? { version: options.version } : {}),
          ...(options.requestId !== undefined ? { requestId: options.requestId } : {}),
        });
        if (!prepared.ok) {
          span.end({ error: prepared.code });
          return prepared;
        }
        span.set({ "pictor.render.id": prepared.value.id, "pictor.render.format": prepared.value.format });
        const accepted = await dispatch(prepared.value, options.waiting, mode, span);
        span.end(accepted.ok ? {} : { error: accepted.code });
        return accepted;
      } catch (error) {
        span.end({ error: "internal_error" });
        throw error;
      }
    },

    async submitBatch(accountId, batch, options) {
      // The whole batch must fit: its rows would otherwise push the queue far past its bound.
      if (!dispatcher.hasRoom(batch.renders.length)) return queueFull();
      return { ok: true, value: await acceptBatch(batchDeps, dispatch, accountId, batch, options) };
    },

    async preflight(accountId, request) {
      const prepared = await prepareRender(deps, accountId, request, {});
      if (!prepared.ok) return prepared;
      const render = prepared.value;
      if (!deps.measurer) return { ok: true, value: { render, warnings: null } };
      const version = await deps.templates.version(render.templateId, render.templateVersion);
      if (!version) throw new Error(`template ${render.templateId} lost version ${render.templateVersion}`);
      const measured = await deps.measurer.measure({
        accountId,
        documentKey: `${render.templateId}@${render.templateVersion}`,
        document: version.document,
        frames: render.frames ?? [render.frame],
        values: render.values,
        scale: render.scale,
      });
      if (!measured.ok) {
        return measured.code === "unavailable"
          ? { ...fail("unavailable", measured.message), retryAfter: FULL_QUEUE_RETRY_AFTER_S }
          : fail(measured.code, measured.message);
      }
      return { ok: true, value: { render, warnings: measured.warnings } };
    },

    wait: (accountId, renderId, timeoutMs) =>
      stopped.signal.aborted
        ? Promise.resolve(null)
        : dispatcher.wait(accountId, renderId, timeoutMs, stopped.signal),
    stopWaiting: () => stopped.abort(),
    waiting: () => !stopped.signal.aborted,
  };
}

/**
 * Accepts a batch row by row, in order, each through the same preparation and dispatch as a single
 * render, so each row is validated and charged on its own: a failing row (validation, webhook URL,
 * credits) is not charged and the next row proceeds. The row's `webhook_url` wins over the batch's;
 * the batch's `metadata` is the default of every row's (row keys win).
 *
 * Crash safety: the batch is written (`accepting`) before the first row; a row that reaches its
 * charge is recorded under its render id just BEFORE the charge commits (so a charged render always
 * has its row, whenever the process dies), and a refused row is recorded as its error as soon as it
 * is refused. A row recorded with a render id that never got stored was cut off mid-charge: it was
 * not charged (GET /v1/batches/:id says so).
 *
 * `resume`: a row the interrupted attempt charged keeps its render, a row it refused keeps its error,
 * and the rest (rows never reached, and a row cut off mid-charge) are accepted now. Nothing is
 * charged twice.
 */
async function acceptBatch(
  deps: RenderServiceDeps,
  dispatch: (
    render: RenderRecord,
    waiting: boolean,
    mode: RenderMode,
    trace?: TraceSpan,
  ) => Promise<Result<RenderRecord>>,
  accountId: string,
  batch: BatchRequest,
  options: { idempotencyKey?: string; resume?: BatchRecord; requestId?: string; trace?: TraceSpan },
): Promise<{ batch: BatchRecord; outcomes: BatchRowOutcome[] }> {
  const rowDeps = { ...deps, ...memoizedLookups(deps) };
  const { resume } = options;
  const header: BatchHeader = resume
    ? {
        id: resume.id,
        accountId: resume.accountId,
        webhookUrl: resume.webhookUrl,
        metadata: resume.metadata,
        createdAt: resume.createdAt,
        rowCount: resume.rowCount,
      }
    : {
        id: newId("bat"),
        accountId,
        webhookUrl: batch.webhook_url ?? null,
        metadata: batch.metadata ?? {},
        createdAt: deps.clock.now().toISOString(),
        rowCount: batch.renders.length,
        idempotencyKey: options.idempotencyKey ?? null,
      };
  if (!resume) await deps.batches.begin(header);
  const decidedBefore = new Map((resume?.rows ?? []).map((r) => [r.index, r]));
  const outcomes: BatchRowOutcome[] = [];
  const rows: BatchRowRecord[] = [];
  /** Validates, records (before the charge) and charges one row: its render, or its refusal. */
  const acceptRow = async (
    index: number,
    request: RenderRequest,
    idempotencyKey?: string,
  ): Promise<BatchRowOutcome> => {
    const prepared = await prepareRender(rowDeps, accountId, request, {
      ...(idempotencyKey ? { idempotencyKey } : {}),
      ...(options.requestId ? { requestId: options.requestId } : {}),
    });
    let accepted: Result<RenderRecord> = prepared;
    if (prepared.ok) {
      // Recorded before the charge, so a crash between the two leaves the charged render reachable.
      await deps.batches.recordRow(header.id, { index, renderId: prepared.value.id, error: null });
      accepted = await dispatch(prepared.value, false, "batch", options.trace);
    }
    return accepted.ok ? { index, render: accepted.value } : { index, error: accepted };
  };
  /** A render accepted earlier under the row's key, answered instead of a new one: recorded now. */
  const replay = async (index: number, render: RenderRecord): Promise<BatchRowOutcome> => {
    await deps.batches.recordRow(header.id, { index, renderId: render.id, error: null });
    return { index, render, replayed: true };
  };
  for (const [index, row] of batch.renders.entries()) {
    const earlier = decidedBefore.get(index);
    const kept = earlier ? await keptOutcome(deps.renders, accountId, earlier) : null;
    if (kept && earlier) {
      outcomes.push(kept);
      rows.push(earlier);
      continue;
    }
    let outcome: BatchRowOutcome;
    if ("ok" in row) {
      outcome = { index, error: row };
    } else {
      const { idempotency_key: key, ...fields } = row;
      const webhookUrl = fields.webhook_url ?? batch.webhook_url;
      const request: RenderRequest = {
        ...fields,
        ...(webhookUrl !== undefined ? { webhook_url: webhookUrl } : {}),
        ...(batch.metadata ? { metadata: { ...batch.metadata, ...fields.metadata } } : {}),
      };
      outcome =
        key === undefined
          ? await acceptRow(index, request)
          : await acceptKeyedRow(deps, accountId, index, request, key, { accept: acceptRow, replay });
    }
    const record = rowRecord(outcome);
    // An accepted or replayed row is already recorded (its reservation names the render); anything
    // else, including a reservation whose charge was refused, is recorded as its error now.
    if ("error" in outcome) await deps.batches.recordRow(header.id, record);
    outcomes.push(outcome);
    rows.push(record);
  }
  await deps.batches.finish(header.id);
  return { batch: { ...header, state: "accepted", rows }, outcomes };
}

/**
 * A row with its own idempotency key, under the Idempotency-Key header's rules (same store, same 24 h,
 * its own namespace: batchRowKeyScope): the key is claimed for the row's fingerprint first, then
 *
 * - a key whose row was accepted before (by any batch of the account, or an earlier row of this one)
 *   answers with that render, charging nothing (`replayed`); with another row it is refused
 *   (`idempotency_key_reused`), and while the row that holds it is still being accepted by another
 *   request, `idempotency_key_in_use`;
 * - otherwise the row is accepted as any row, its render stored under the key (`idempotencyKey`), and
 *   the key completed with the render's id. A refused row (nothing charged) frees the key again, so
 *   the same row can be sent again once the reason is gone (credits granted).
 *
 * A claim whose process died before completing it is taken over after the lock timeout (at once
 * when the request failed on our side: `suspend`), and then looks for the render that process may
 * have charged (findByIdempotencyKey) before accepting anything.
 */
async function acceptKeyedRow(
  deps: RenderServiceDeps,
  accountId: string,
  index: number,
  request: RenderRequest,
  key: string,
  row: {
    accept(index: number, request: RenderRequest, idempotencyKey: string): Promise<BatchRowOutcome>;
    replay(index: number, render: RenderRecord): Promise<BatchRowOutcome>;
  },
): Promise<BatchRowOutcome> {
  const scope: IdempotencyScope = { accountId, key: batchRowKeyScope(key) };
  const fingerprint = batchRowFingerprint(request);
  const now = () => deps.clock.now().getTime();
  const begun = await deps.idempotency.begin(scope, fingerprint, now(), IDEMPOTENCY_LIMITS);
  switch (begun.kind) {
    case "mismatch":
      return {
        index,
        error: fail(
          "idempotency_key_reused",
          `renders[${index}].idempotency_key was already used with a different row in the last 24 hours.`,
          { errors: [{ path: `renders[${index}].idempotency_key`, message: "used with another row" }] },
        ),
      };
    case "in_progress":
      return {
        index,
        error: fail(
          "idempotency_key_in_use",
          `renders[${index}].idempotency_key belongs to a row another request is still accepting; send the row again shortly.`,
        ),
      };
    case "completed": {
      const renderId = new TextDecoder().decode(begun.response.body);
      const render = await deps.renders.get(accountId, renderId);
      if (!render) throw new Error(`batch row key of ${accountId} names render ${renderId}, which is gone`);
      return row.replay(index, render);
    }
    case "started":
      break;
  }
  try {
    if (begun.resumeSince !== undefined) {
      const since = new Date(begun.resumeSince).toISOString();
      const charged = await deps.renders.findByIdempotencyKey(accountId, scope.key, since);
      if (charged) {
        const outcome = await row.replay(index, charged);
        await completeRowKey(deps.idempotency, scope, fingerprint, charged.id, now());
        return outcome;
      }
    }
    const outcome = await row.accept(index, request, scope.key);
    if ("render" in outcome) {
      await completeRowKey(deps.idempotency, scope, fingerprint, outcome.render.id, now());
    } else {
      await deps.idempotency.release(scope, fingerprint);
    }
    return outcome;
  } catch (error) {
    // The row may have been charged: the key stays with it, and the next claim looks for its render.
    await deps.idempotency.suspend(scope, fingerprint).catch(() => {});
    throw error;
  }
}

function completeRowKey(
  store: IdempotencyStore,
  scope: IdempotencyScope,
  fingerprint: string,
  renderId: string,
  now: number,
): Promise<void> {
  const response = { status: 202, headers: {}, body: new TextEncoder().encode(renderId) };
  return store.complete(scope, fingerprint, response, now);
}

/**
 * A row the interrupted attempt decided: its render (charged) or its refusal. Null for a reservation
 * whose render was never stored (cut off mid-charge, not charged): it is decided again.
 */
async function keptOutcome(
  renders: Pick<RenderStore, "get">,
  accountId: string,
  row: BatchRowRecord,
): Promise<BatchRowOutcome | null> {
  if (row.error) {
    const { code, message, ...details } = row.error;
    return { index: row.index, error: { ok: false, code: code as Failure["code"], message, details } };
  }
  const render = row.renderId ? await renders.get(accountId, row.renderId) : null;
  return render ? { index: row.index, render } : null;
}

function rowRecord(outcome: BatchRowOutcome): BatchRowRecord {
  return "render" in outcome
    ? { index: outcome.index, renderId: outcome.render.id, error: null }
    : { index: outcome.index, renderId: null, error: errorBody(outcome.error) };
}

/**
 * A thousand rows usually name one template and one webhook URL: look each up once per batch
 * (the published version's document is parsed once, the webhook host resolved once) instead of
 * once per row. Safe because a batch is accepted as of one moment.
 */
function memoizedLookups(deps: PrepareRenderDeps): Pick<PrepareRenderDeps, "templates" | "checkUrl"> {
  const found = new Map<string, ReturnType<TemplateStore["find"]>>();
  const versions = new Map<string, ReturnType<TemplateStore["version"]>>();
  const checked = new Map<string, ReturnType<PrepareRenderDeps["checkUrl"]>>();
  const remember = <V>(map: Map<string, V>, key: string, load: () => V): V => {
    let value = map.get(key);
    if (value === undefined) {
      value = load();
      map.set(key, value);
    }
    return value;
  };
  // Only the two lookups are remembered; every other method is the store's own.
  const templates: TemplateStore = Object.create(deps.templates);
  templates.find = (accountId, idOrKey) =>
    remember(found, `${accountId}\n${idOrKey}`, () => deps.templates.find(accountId, idOrKey));
  templates.version = (templateId, version) =>
    remember(versions, `${templateId}\n${version}`, () => deps.templates.version(templateId, version));
  return {
    templates,
    checkUrl: (url) => remember(checked, url, () => deps.checkUrl(url)),
  };
}
