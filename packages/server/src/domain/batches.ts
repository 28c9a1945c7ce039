import type { RenderRecord } from "../ports/render-store.ts";
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

export interface BatchRecord {
  id: string;
  accountId: string;
  webhookUrl: string | null;
  metadata: Record<string, string>;
  createdAt: string;
  rows: BatchRowRecord[];
}

/** Where batches are kept; the renders themselves live in the RenderStore. */
export interface BatchStore {
  insert(batch: BatchRecord): Promise<void>;
  /** Within the account only (another account's batch is not found). */
  get(accountId: string, id: string): Promise<BatchRecord | null>;
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
 */
export async function acceptBatch(
  deps: AcceptBatchDeps,
  accountId: string,
  batch: BatchRequest,
): Promise<{ batch: BatchRecord; outcomes: BatchRowOutcome[] }> {
  const rowDeps = { ...deps, ...memoizedLookups(deps) };
  const outcomes: BatchRowOutcome[] = [];
  for (const [index, row] of batch.renders.entries()) {
    if ("ok" in row) {
      outcomes.push({ index, error: row });
      continue;
    }
    const webhookUrl = row.webhook_url ?? batch.webhook_url;
    const request: RenderRequest = {
      ...row,
      ...(webhookUrl !== undefined ? { webhook_url: webhookUrl } : {}),
      ...(batch.metadata ? { metadata: { ...batch.metadata, ...row.metadata } } : {}),
    };
    const accepted = await acceptRender(rowDeps, accountId, request);
    if (accepted.ok) {
      deps.enqueue(accepted.value.id, accepted.value.accountId);
      outcomes.push({ index, render: accepted.value });
    } else {
      outcomes.push({ index, error: accepted });
    }
  }
  const record: BatchRecord = {
    id: newId("bat"),
    accountId,
    webhookUrl: batch.webhook_url ?? null,
    metadata: batch.metadata ?? {},
    createdAt: deps.clock.now().toISOString(),
    rows: outcomes.map((o) =>
      "render" in o
        ? { index: o.index, renderId: o.render.id, error: null }
        : { index: o.index, renderId: null, error: errorBody(o.error) },
    ),
  };
  await deps.batches.insert(record);
  return { batch: record, outcomes };
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
