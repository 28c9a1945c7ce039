import type { DatabaseSync } from "node:sqlite";
import type { BatchRecord, BatchStore } from "../../domain/batches.ts";
import { json, parse, transaction } from "./database.ts";

type Row = Record<string, unknown>;

export function createSqliteBatchStore(db: DatabaseSync): BatchStore {
  const insertBatch = db.prepare(
    "INSERT INTO batches (id, account_id, webhook_url, metadata, row_count, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const insertRow = db.prepare(
    "INSERT INTO batch_rows (batch_id, idx, render_id, error) VALUES (?, ?, ?, ?)",
  );
  const byId = db.prepare("SELECT * FROM batches WHERE id = ? AND account_id = ?");
  const rowsOf = db.prepare("SELECT idx, render_id, error FROM batch_rows WHERE batch_id = ? ORDER BY idx");
  return {
    async insert(batch) {
      // One commit for the whole record (1,000 rows: a few ms); the renders were committed row by row.
      transaction(db, () => {
        insertBatch.run(
          batch.id,
          batch.accountId,
          batch.webhookUrl,
          json(batch.metadata),
          batch.rows.length,
          batch.createdAt,
        );
        for (const row of batch.rows) {
          insertRow.run(batch.id, row.index, row.renderId, row.error === null ? null : json(row.error));
        }
      });
    },
    async get(accountId, id) {
      const b = byId.get(id, accountId) as Row | undefined;
      if (!b) return null;
      return {
        id: String(b.id),
        accountId: String(b.account_id),
        webhookUrl: (b.webhook_url as string | null) ?? null,
        metadata: parse(b.metadata),
        createdAt: String(b.created_at),
        rows: (rowsOf.all(id) as Row[]).map((r) => ({
          index: Number(r.idx),
          renderId: (r.render_id as string | null) ?? null,
          error: r.error === null ? null : parse(r.error),
        })),
      } satisfies BatchRecord;
    },
  };
}
