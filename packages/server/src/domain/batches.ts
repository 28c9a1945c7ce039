import type { RenderRecord, RenderStore } from "../ports/render-store.ts";
import type { TemplateStore } from "../ports/template-store.ts";
import type { Failure } from "./failure.ts";
import { newId } from "./ids.ts";
import { type AcceptRenderDeps, acceptRender, type RenderRequest } from "./renders.ts";

/** api-decisions "Limits": at most 1,000 rows per batch (more is 413 payload_too_large). */
export const MAX_BATCH_ROWS = 1000;

export interface BatchRequest {
  webhook_url?: string;
  metadata?: Record<string, string>;
  /** Rows whose shape was already checked; a row that failed that check arrives as its Failure. */
  renders: (RenderRequest | Failure)[];
}

export type BatchRowOutcome = { index: number; render: RenderRecord } | { index: number; error: Failure };

export interface BatchRowRecord {
  index: number;
  renderId: string | null;
  error: { code: string; message: string; [detail: string]: unknown } | null;
}

/**
 * `accepting` from the moment the record is written (before the first row) until the last row is
 * recorded; `accepted` after. A batch whose accepting process died stays `accepting` for ever: read
 * it through `batchState`, which reports it as `interrupted` once it is old enough.
 */
export type StoredBatchState = "accepting" | "accepted";
export type BatchState = StoredBatchState | "interrupted";

export interface BatchHeader {
  id: string;
  accountId: string;
  webhookUrl: string | null;
  metadata: Record<string, string>;
  createdAt: string;
  /** Rows submitted; the rows recorded fall short of it only while accepting or when interrupted. */
  rowCount: number;
  /**
   * The Idempotency-Key of the request that began it (stored, not read back). Lets a retry whose
   * first attempt died mid-batch find and complete it (`findByIdempotencyKey`).
   */
  idempotencyKey?: string | null;
}

export interface BatchSummary extends BatchHeader {
  state: StoredBatchState;
}

export interface BatchRecord extends BatchSummary {
  /**
   * The rows recorded so far, by index. A row with a render id whose render does not exist was cut
   * off between its reservation and its charge: not charged.
   */
  rows: BatchRowRecord[];
}

/**
 * Where batches are kept; the renders themselves live in the RenderStore. Written as the batch is
 * accepted, so that a crash mid-accept leaves every charged render reachable from its batch.
 */
export interface BatchStore {
  /** Writes the batch as `accepting`, with no rows, before the first row is charged. */
  begin(batch: BatchHeader): Promise<void>;
  /**
   * Records one row: its render id just before the charge, or its error once refused. A second call
   * for the same index replaces the first (a reservation whose charge was refused becomes its error).
   */
  recordRow(batchId: string, row: BatchRowRecord): Promise<void>;
  /** Marks the batch `accepted`: every row is recorded. */
  finish(batchId: string): Promise<void>;
  /** The newest of the account's batches begun under `idempotencyKey` at or after `since` (ISO). */
  findByIdempotencyKey(accountId: string, idempotencyKey: string, since: string): Promise<BatchRecord | null>;
  /** Within the account only (another account's batch is not found). */
  get(accountId: string, id: string): Promise<BatchRecord | null>;
  /**
   * The account's batches, newest first (created_at, then id, descending), after the batch `after`
   * in that order: how a caller whose POST got no answer finds the batch the crash left behind.
   */
  list(accountId: string, page: { limit: number; after: string | null }): Promise<BatchSummary[]>;
}

/**
 * Accepting 1,000 rows takes well under a second (about 0.3 s measured); a batch still `accepting`
 * this long after it was created has lost its process (crash, kill, restart) and will not move again.
 */
export const INTERRUPTED_AFTER_MS = 5 * 60_000;

export function batchState(batch: Pick<BatchRecord, "state" | "createdAt">, now: Date): BatchState {
  if (batch.state === "accepting" && now.getTime() - Date.parse(batch.createdAt) >= INTERRUPTED_AFTER_MS) {
    return "interrupted";
  }
  return batch.state;
}

export interface AcceptBatchDeps extends AcceptRenderDeps {
  batches: BatchStore;
  /** Called as soon as a row's render is charged and stored, so workers start before the batch ends. */
  enqueue(renderId: string, accountId: string): void;
}

/**
 * Accepts a batch row by row, in order, each through the same `acceptRender` as POST /v1/renders,
 * so each row is validated and charged on its own: a failing row (validation, webhook URL, credits)
 * is not charged and the next row proceeds. The row's `webhook_url` wins over the batch's; the
 * batch's `metadata` is the default of every row's (row keys win).
 *
 * Crash safety: the batch is written (`accepting`) before the first row; a row that reaches its
 * charge is recorded under its render id just BEFORE the charge commits (so a charged render always
 * has its row, whenever the process dies), and a refused row is recorded as its error as soon as it
 * is refused. A row recorded with a render id that never got stored was cut off mid-charge: it was
 * not charged (GET /v1/batches/:id says so).
 *
 * `resume`: the batch the same request began before its process died (found by its Idempotency-Key).
 * It is completed instead of a new one begun: a row it charged keeps its render, a row it refused
 * keeps its error, and the rest (rows never reached, and a row cut off mid-charge, which was not
 * charged) are accepted now. Nothing is charged twice.
 */
export async function acceptBatch(
  deps: AcceptBatchDeps,
  accountId: string,
  batch: BatchRequest,
  options: { idempotencyKey?: string; resume?: BatchRecord } = {},
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
      const webhookUrl = row.webhook_url ?? batch.webhook_url;
      const request: RenderRequest = {
        ...row,
        ...(webhookUrl !== undefined ? { webhook_url: webhookUrl } : {}),
        ...(batch.metadata ? { metadata: { ...batch.metadata, ...row.metadata } } : {}),
      };
      const renders = reservingBeforeCharge(deps.renders, deps.batches, header.id, index);
      const accepted = await acceptRender({ ...rowDeps, renders }, accountId, request);
      outcome = accepted.ok ? { index, render: accepted.value } : { index, error: accepted };
    }
    const record = rowRecord(outcome);
    // An accepted row is already recorded (its reservation names the render); anything else, including
    // a reservation whose charge was refused, is recorded as its error now.
    if ("error" in outcome) await deps.batches.recordRow(header.id, record);
    else deps.enqueue(outcome.render.id, outcome.render.accountId);
    outcomes.push(outcome);
    rows.push(record);
  }
  await deps.batches.finish(header.id);
  return { batch: { ...header, state: "accepted", rows }, outcomes };
}

/**
 * A row the interrupted attempt decided: its render (charged) or its refusal. Null for a reservation
 * whose render was never stored (cut off mid-charge, not charged): it is decided again.
 */
async function keptOutcome(
  renders: RenderStore,
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

/** The RenderStore as `acceptRender` sees it for one row: the row is recorded before the charge. */
function reservingBeforeCharge(
  renders: RenderStore,
  batches: BatchStore,
  batchId: string,
  index: number,
): RenderStore {
  const wrapped: RenderStore = Object.create(renders);
  wrapped.accept = async (render) => {
    await batches.recordRow(batchId, { index, renderId: render.id, error: null });
    return renders.accept(render);
  };
  return wrapped;
}

function rowRecord(outcome: BatchRowOutcome): BatchRowRecord {
  return "render" in outcome
    ? { index: outcome.index, renderId: outcome.render.id, error: null }
    : { index: outcome.index, renderId: null, error: errorBody(outcome.error) };
}

export function errorBody(failure: Failure): { code: string; message: string; [detail: string]: unknown } {
  return { code: failure.code, message: failure.message, ...failure.details };
}

/**
 * A thousand rows usually name one template and one webhook URL: look each up once per batch
 * (the published version's document is parsed once, the webhook host resolved once) instead of
 * once per row. Safe because a batch is accepted as of one moment.
 */
function memoizedLookups(deps: AcceptRenderDeps): Pick<AcceptRenderDeps, "templates" | "checkUrl"> {
  const found = new Map<string, ReturnType<TemplateStore["find"]>>();
  const versions = new Map<string, ReturnType<TemplateStore["version"]>>();
  const checked = new Map<string, ReturnType<AcceptRenderDeps["checkUrl"]>>();
  const remember = <V>(map: Map<string, V>, key: string, load: () => V): V => {
    let value = map.get(key);
    if (value === undefined) {
      value = load();
      map.set(key, value);
    }
    return value;
  };
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
