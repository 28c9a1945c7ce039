import type { DatabaseSync } from "node:sqlite";
import type { BatchRecord, BatchStore, BatchSummary, StoredBatchState } from "../../ports/batch-store.ts";
import { batchIdByIdempotencyKey } from "../sql-rows.ts";
import { json, parse } from "./database.ts";

type Row = Record<string, unknown>;

export function createSqliteBatchStore(db: DatabaseSync): BatchStore {
  const insertBatch = db.prepare(
    "INSERT INTO batches (id, account_id, webhook_url, metadata, row_count, created_at, state, idempotency_key) VALUES (?, ?, ?, ?, ?, ?, 'accepting', ?)",
  );
  const insertRow = db.prepare(
    `INSERT INTO batch_rows (batch_id, idx, render_id, error) VALUES (?, ?, ?, ?)
     ON CONFLICT (batch_id, idx) DO UPDATE SET render_id = excluded.render_id, error = excluded.error`,
  );
  const markAccepted = db.prepare("UPDATE batches SET state = 'accepted' WHERE id = ?");
  const byId = db.prepare("SELECT * FROM batches WHERE id = ? AND account_id = ?");
  const newest = db.prepare(
    "SELECT * FROM batches WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?",
  );
  const newestAfter = db.prepare(
    `SELECT b.* FROM batches b, batches c WHERE c.id = ? AND c.account_id = b.account_id AND b.account_id = ?
     AND (b.created_at, b.id) < (c.created_at, c.id) ORDER BY b.created_at DESC, b.id DESC LIMIT ?`,
  );
  const rowsOf = db.prepare("SELECT idx, render_id, error FROM batch_rows WHERE batch_id = ? ORDER BY idx");
  const byIdempotencyKey = db.prepare(batchIdByIdempotencyKey("?"));
  const store: BatchStore = {
    async begin(batch) {
      insertBatch.run(
        batch.id,
        batch.accountId,
        batch.webhookUrl,
        json(batch.metadata),
        batch.rowCount,
        batch.createdAt,
        batch.idempotencyKey ?? null,
      );
    },
    async recordRow(batchId, row) {
      // One autocommit statement per row (WAL, synchronous=NORMAL: tens of microseconds), committed
      // before the row's charge starts.
      insertRow.run(batchId, row.index, row.renderId, row.error === null ? null : json(row.error));
    },
    async finish(batchId) {
      markAccepted.run(batchId);
    },
    async list(accountId, page) {
      const rows =
        page.after === null
          ? newest.all(accountId, page.limit)
          : newestAfter.all(page.after, accountId, page.limit);
      return (rows as Row[]).map(summary);
    },
    async get(accountId, id) {
      // No snapshot needed: the state is read before the rows and rows only ever get added, so an
      // 'accepted' batch is read with all its rows and an 'accepting' one with those recorded so far.
      const b = byId.get(id, accountId) as Row | undefined;
      if (!b) return null;
      return {
        ...summary(b),
        rows: (rowsOf.all(id) as Row[]).map((r) => ({
          index: Number(r.idx),
          renderId: (r.render_id as string | null) ?? null,
          error: r.error === null ? null : parse(r.error),
        })),
      } satisfies BatchRecord;
    },
    async findByIdempotencyKey(accountId, idempotencyKey, since) {
      const found = byIdempotencyKey.get(accountId, idempotencyKey, since) as Row | undefined;
      return found ? store.get(accountId, String(found.id)) : null;
    },
  };
  return store;
}

function summary(b: Row): BatchSummary {
  return {
    id: String(b.id),
    accountId: String(b.account_id),
    webhookUrl: (b.webhook_url as string | null) ?? null,
    metadata: parse(b.metadata),
    createdAt: String(b.created_at),
    rowCount: Number(b.row_count),
    state: String(b.state) as StoredBatchState,
  };
}
