import type { TemplateDocumentT } from "../domain/document.ts";
import { storedDocument } from "../domain/template-document.ts";
import type { ApiKeyRecord } from "../ports/account-store.ts";
import type { LibraryAsset } from "../ports/asset-library.ts";
import type { AssetRecord } from "../ports/asset-store.ts";
import type { LedgerEntry, LedgerKind } from "../ports/ledger.ts";
import type { OutputFormat, RenderRecord, RenderStatus } from "../ports/render-store.ts";
import type { TemplateRecord, TemplateVersion } from "../ports/template-store.ts";
import type { ClaimedDelivery, DeliveryAttemptRecord } from "../ports/webhook-outbox.ts";

/**
 * Row <-> record mapping shared by the SQLite and PostgreSQL adapters. The two schemas have the same
 * columns; they differ only in how a column comes back: SQLite returns JSON as text and timestamps as
 * the ISO strings we stored, PostgreSQL returns parsed jsonb and `Date`s. That difference is the
 * `ColumnDecoding` each adapter passes in.
 */
export type Row = Record<string, unknown>;

export interface ColumnDecoding {
  json<T>(value: unknown): T;
  time(value: unknown): string;
  timeOrNull(value: unknown): string | null;
}

export const renderFromRow = (r: Row, d: ColumnDecoding): RenderRecord => ({
  id: String(r.id),
  accountId: String(r.account_id),
  templateId: String(r.template_id),
  templateKey: String(r.template_key),
  templateVersion: Number(r.template_version),
  frame: String(r.frame),
  frames: r.frames === null || r.frames === undefined ? null : d.json<string[]>(r.frames),
  dpi: r.dpi === null || r.dpi === undefined ? null : Number(r.dpi),
  scale: Number(r.scale),
  format: r.format as OutputFormat,
  ...(r.animation === null || r.animation === undefined
    ? {}
    : { animation: d.json<RenderRecord["animation"]>(r.animation) }),
  quality: r.quality === null ? null : Number(r.quality),
  width: Number(r.width),
  height: Number(r.height),
  values: d.json(r.slot_values),
  metadata: d.json(r.metadata),
  tags: d.json(r.tags),
  webhookUrl: (r.webhook_url as string | null) ?? null,
  status: r.status as RenderStatus,
  creditsCharged: Number(r.credits_charged),
  creditsRefunded: Number(r.refunded ?? 0),
  error: r.error_code ? { code: String(r.error_code), message: String(r.error_message) } : null,
  warnings: d.json(r.warnings),
  assetId: (r.asset_id as string | null) ?? null,
  createdAt: d.time(r.created_at),
  completedAt: d.timeOrNull(r.completed_at),
  ...(r.request_id ? { requestId: String(r.request_id) } : {}),
  ...(r.optimize === "size" ? { optimize: "size" as const } : {}),
});

/** Renders with their refund (at most one per render: a ledger uniqueness rule). */
export const RENDER_SELECT = `SELECT renders.*,
  (SELECT amount FROM ledger WHERE ledger.render_id = renders.id AND kind = 'refund') AS refunded
  FROM renders`;

/** The newest row of `select` under an Idempotency-Key: parameters (account, key, since), in each dialect. */
const newestByIdempotencyKey = (select: string, style: "?" | "$"): string => {
  const [account, key, since] = placeholders(3, style).split(", ");
  return `${select} WHERE account_id = ${account} AND idempotency_key = ${key} AND created_at >= ${since}
   ORDER BY created_at DESC LIMIT 1`;
};

/** The lookup behind `RenderStore.findByIdempotencyKey` (account, key, since), in each dialect. */
export const renderByIdempotencyKey = (style: "?" | "$"): string =>
  newestByIdempotencyKey(RENDER_SELECT, style);

/** The id behind `BatchStore.findByIdempotencyKey` (account, key, since), in each dialect. */
export const batchIdByIdempotencyKey = (style: "?" | "$"): string =>
  newestByIdempotencyKey("SELECT id FROM batches", style);

/** A newly accepted render: columns and values in the same order. */
export const RENDER_INSERT_COLUMNS = `id, account_id, template_id, template_key, template_version, frame, scale,
  format, quality, width, height, slot_values, metadata, tags, webhook_url, status, credits_charged, created_at,
  idempotency_key, frames, dpi, request_id, optimize, animation`;
/** `INSERT INTO renders …` with the placeholders of each dialect. */
export const renderInsert = (style: "?" | "$"): string =>
  `INSERT INTO renders (${RENDER_INSERT_COLUMNS}) VALUES (${placeholders(RENDER_INSERT_COLUMNS.split(",").length, style)})`;
export const renderInsertValues = (r: RenderRecord): unknown[] => [
  r.id,
  r.accountId,
  r.templateId,
  r.templateKey,
  r.templateVersion,
  r.frame,
  r.scale,
  r.format,
  r.quality,
  r.width,
  r.height,
  JSON.stringify(r.values),
  JSON.stringify(r.metadata),
  JSON.stringify(r.tags),
  r.webhookUrl,
  r.status === "rendering" ? "rendering" : "queued",
  r.creditsCharged,
  r.createdAt,
  r.idempotencyKey ?? null,
  r.frames === null ? null : JSON.stringify(r.frames),
  r.dpi,
  r.requestId ?? null,
  r.optimize === "size" ? "size" : null,
  r.animation ? JSON.stringify(r.animation) : null,
];

export const assetFromRow = (r: Row, d: ColumnDecoding): AssetRecord => ({
  id: String(r.id),
  accountId: String(r.account_id),
  folder: String(r.folder),
  name: String(r.name),
  contentType: String(r.content_type),
  byteSize: Number(r.byte_size),
  width: r.width === null ? null : Number(r.width),
  height: r.height === null ? null : Number(r.height),
  blobKey: String(r.blob_key),
  token: String(r.token),
  etag: String(r.etag),
  metadata: d.json(r.metadata),
  tags: d.json(r.tags),
  renderId: (r.render_id as string | null) ?? null,
  createdAt: d.time(r.created_at),
});

export const ASSET_INSERT_COLUMNS = `id, account_id, folder, name, content_type, byte_size, width, height, blob_key,
  token, etag, metadata, tags, render_id, created_at`;
export const assetInsertValues = (a: AssetRecord): unknown[] => [
  a.id,
  a.accountId,
  a.folder,
  a.name,
  a.contentType,
  a.byteSize,
  a.width,
  a.height,
  a.blobKey,
  a.token,
  a.etag,
  JSON.stringify(a.metadata),
  JSON.stringify(a.tags),
  a.renderId,
  a.createdAt,
];

/** One page of an account's ledger by id, either way (Ledger.entries): the statement and its values. */
export const ledgerPage = (
  style: "?" | "$",
  accountId: string,
  { limit, after, newestFirst }: { limit: number; after: number | null; newestFirst?: boolean },
): [string, unknown[]] => {
  const [account, cursor, count] = placeholders(3, style).split(", ");
  const [compare, order] = newestFirst ? ["<", "DESC"] : [">", "ASC"];
  return [
    `SELECT * FROM ledger WHERE account_id = ${account} AND id ${compare} ${cursor} ORDER BY id ${order} LIMIT ${count}`,
    [accountId, after ?? (newestFirst ? Number.MAX_SAFE_INTEGER : 0), limit],
  ];
};

export const ledgerEntryFromRow = (r: Row, d: ColumnDecoding): LedgerEntry => ({
  id: Number(r.id),
  kind: r.kind as LedgerKind,
  amount: Number(r.amount),
  renderId: (r.render_id as string | null) ?? null,
  note: (r.note as string | null) ?? null,
  createdAt: d.time(r.created_at),
});

/** `?, ?, …` (SQLite) or `$1, $2, …` (PostgreSQL) for `count` values. */
export const placeholders = (count: number, style: "?" | "$"): string =>
  Array.from({ length: count }, (_, i) => (style === "?" ? "?" : `$${i + 1}`)).join(", ");

/** An asset with what asset_files knows of it (a LEFT JOIN: null for an asset without a file row). */
export const libraryAssetFromRow = (r: Row, d: ColumnDecoding): LibraryAsset => ({
  ...assetFromRow(r, d),
  sha256: r.file_sha256 === null || r.file_sha256 === undefined ? null : String(r.file_sha256),
  font:
    r.font_family === null || r.font_family === undefined
      ? null
      : {
          family: String(r.font_family),
          weight: Number(r.font_weight),
          style: r.font_style === "italic" ? "italic" : "normal",
        },
});

export const templateFromRow = (r: Row, d: ColumnDecoding): TemplateRecord => {
  // Decoded on first use: accepting a render reads the template row for its published version and
  // never looks at the draft, which is as large as the whole document.
  let draft: TemplateDocumentT | undefined;
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    key: String(r.key),
    name: String(r.name),
    get draft() {
      draft ??= storedDocument(d.json(r.draft));
      return draft;
    },
    publishedVersion: r.published_version === null ? null : Number(r.published_version),
    archivedAt: d.timeOrNull(r.archived_at),
    createdAt: d.time(r.created_at),
    updatedAt: d.time(r.updated_at),
  };
};

export const templateVersionFromRow = (r: Row, d: ColumnDecoding): TemplateVersion => ({
  templateId: String(r.template_id),
  version: Number(r.version),
  document: storedDocument(d.json(r.document)),
  publishedAt: d.time(r.published_at),
});

export const apiKeyFromRow = (r: Row, d: ColumnDecoding): ApiKeyRecord => ({
  id: String(r.id),
  accountId: String(r.account_id),
  prefix: String(r.prefix),
  name: (r.name as string | null) ?? null,
  createdAt: d.time(r.created_at),
  lastUsedAt: d.timeOrNull(r.last_used_at),
  revokedAt: d.timeOrNull(r.revoked_at),
});

/** Webhook outbox rows keep times as epoch milliseconds in both databases: nothing to decode. */
export const deliveryFromRow = (row: Row): ClaimedDelivery => ({
  event_id: String(row.event_id),
  account_id: String(row.account_id),
  render_id: String(row.render_id),
  url: String(row.url),
  body: String(row.body),
  signature: row.signature === null ? null : String(row.signature),
  created_at: Number(row.created_at),
  schedule_attempts: Number(row.schedule_attempts),
  claim_token: String(row.claim_token),
  lease_until: Number(row.lease_until),
  ...(row.request_id ? { request_id: String(row.request_id) } : {}),
  ...(row.traceparent ? { traceparent: String(row.traceparent) } : {}),
});

export const deliveryAttemptFromRow = (row: Row): DeliveryAttemptRecord => ({
  attempt: Number(row.attempt),
  at: Number(row.at),
  status_code: row.status_code === null || row.status_code === undefined ? null : Number(row.status_code),
  error: row.error === null ? null : String(row.error),
  duration_ms: Number(row.duration_ms),
});
