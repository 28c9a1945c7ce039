import type pg from "pg";
import type {
  BatchRecord,
  BatchRowRecord,
  BatchStore,
  BatchSummary,
  StoredBatchState,
} from "../../ports/batch-store.ts";
import { batchIdByIdempotencyKey } from "../sql-rows.ts";
import { iso } from "./pool.ts";

export function createPgBatchStore(pool: pg.Pool): BatchStore {
  const store: BatchStore = {
    async begin(batch) {
      await pool.query(
        "INSERT INTO batches (id, account_id, webhook_url, metadata, row_count, created_at, state, idempotency_key) VALUES ($1, $2, $3, $4, $5, $6, 'accepting', $7)",
        [
          batch.id,
          batch.accountId,
          batch.webhookUrl,
          JSON.stringify(batch.metadata),
          batch.rowCount,
          batch.createdAt,
          batch.idempotencyKey ?? null,
        ],
      );
    },
    async recordRow(batchId, row) {
      // One round trip per row, committed on its own before the row's charge starts.
      await pool.query(
        `INSERT INTO batch_rows (batch_id, idx, render_id, error) VALUES ($1, $2, $3, $4)
         ON CONFLICT (batch_id, idx) DO UPDATE SET render_id = excluded.render_id, error = excluded.error`,
        [batchId, row.index, row.renderId, row.error === null ? null : JSON.stringify(row.error)],
      );
    },
    async finish(batchId) {
      await pool.query("UPDATE batches SET state = 'accepted' WHERE id = $1", [batchId]);
    },
    async list(accountId, page) {
      const { rows } =
        page.after === null
          ? await pool.query(
              "SELECT * FROM batches WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
              [accountId, page.limit],
            )
          : await pool.query(
              `SELECT b.* FROM batches b, batches c WHERE c.id = $1 AND c.account_id = b.account_id AND b.account_id = $2
               AND (b.created_at, b.id) < (c.created_at, c.id) ORDER BY b.created_at DESC, b.id DESC LIMIT $3`,
              [page.after, accountId, page.limit],
            );
      return rows.map(summary);
    },
    async get(accountId, id) {
      // The state is read before the rows and rows are only ever added, so an 'accepted' batch is
      // read with all its rows and an 'accepting' one with those recorded so far: no snapshot needed.
      const b = (await pool.query("SELECT * FROM batches WHERE id = $1 AND account_id = $2", [id, accountId]))
        .rows[0];
      if (!b) return null;
      const rows = await pool.query(
        "SELECT idx, render_id, error FROM batch_rows WHERE batch_id = $1 ORDER BY idx",
        [id],
      );
      return {
        ...summary(b),
        rows: rows.rows.map(
          (r): BatchRowRecord => ({
            index: Number(r.idx),
            renderId: (r.render_id as string | null) ?? null,
            error: (r.error as BatchRowRecord["error"]) ?? null,
          }),
        ),
      } satisfies BatchRecord;
    },
    async findByIdempotencyKey(accountId, idempotencyKey, since) {
      const { rows } = await pool.query(batchIdByIdempotencyKey("$"), [accountId, idempotencyKey, since]);
      return rows[0] ? store.get(accountId, String(rows[0].id)) : null;
    },
  };
  return store;
}

function summary(b: Record<string, unknown>): BatchSummary {
  return {
    id: String(b.id),
    accountId: String(b.account_id),
    webhookUrl: (b.webhook_url as string | null) ?? null,
    metadata: b.metadata as Record<string, string>,
    createdAt: iso(b.created_at as Date),
    rowCount: Number(b.row_count),
    state: String(b.state) as StoredBatchState,
  };
}
