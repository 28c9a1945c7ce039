import type pg from "pg";
import type { BatchRecord, BatchRowRecord, BatchStore } from "../../domain/batches.ts";
import { iso, withTransaction } from "./pool.ts";

export function createPgBatchStore(pool: pg.Pool): BatchStore {
  return {
    async insert(batch) {
      await withTransaction(pool, async (client) => {
        await client.query(
          "INSERT INTO batches (id, account_id, webhook_url, metadata, row_count, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
          [
            batch.id,
            batch.accountId,
            batch.webhookUrl,
            JSON.stringify(batch.metadata),
            batch.rows.length,
            batch.createdAt,
          ],
        );
        if (batch.rows.length === 0) return;
        // One multi-row insert via arrays: 1,000 rows in one round trip instead of 1,000.
        await client.query(
          `INSERT INTO batch_rows (batch_id, idx, render_id, error)
           SELECT $1, idx, render_id, error::json FROM unnest($2::int[], $3::text[], $4::text[]) AS r(idx, render_id, error)`,
          [
            batch.id,
            batch.rows.map((r) => r.index),
            batch.rows.map((r) => r.renderId),
            batch.rows.map((r) => (r.error === null ? null : JSON.stringify(r.error))),
          ],
        );
      });
    },
    async get(accountId, id) {
      const b = (await pool.query("SELECT * FROM batches WHERE id = $1 AND account_id = $2", [id, accountId]))
        .rows[0];
      if (!b) return null;
      const rows = await pool.query(
        "SELECT idx, render_id, error FROM batch_rows WHERE batch_id = $1 ORDER BY idx",
        [id],
      );
      return {
        id: String(b.id),
        accountId: String(b.account_id),
        webhookUrl: (b.webhook_url as string | null) ?? null,
        metadata: b.metadata as Record<string, string>,
        createdAt: iso(b.created_at),
        rows: rows.rows.map(
          (r): BatchRowRecord => ({
            index: Number(r.idx),
            renderId: (r.render_id as string | null) ?? null,
            error: (r.error as BatchRowRecord["error"]) ?? null,
          }),
        ),
      } satisfies BatchRecord;
    },
  };
}
