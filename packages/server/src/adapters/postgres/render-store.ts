import type pg from "pg";
import type { RenderRecord, RenderStore } from "../../ports/render-store.ts";
import {
  RENDER_SELECT,
  type Row,
  renderByIdempotencyKey,
  renderFromRow,
  renderInsert,
  renderInsertValues,
} from "../sql-rows.ts";
import { insertAsset } from "./asset-store.ts";
import { balanceOf } from "./ledger.ts";
import { type PgExecutor, postgresColumns, withTransaction } from "./pool.ts";
import { insertWebhookEvent } from "./webhook-outbox.ts";

const toRender = (r: Row): RenderRecord => renderFromRow(r, postgresColumns);

const json = (value: unknown) => JSON.stringify(value);

/** Locks the render row until the transaction ends; null when absent or already finished. */
async function lockPending(client: PgExecutor, id: string): Promise<Row | null> {
  const { rows } = await client.query(`SELECT * FROM renders WHERE id = $1 FOR UPDATE`, [id]);
  const r = rows[0] as Row | undefined;
  return r && (r.status === "queued" || r.status === "rendering") ? r : null;
}

/** Channel on which a render's end (completed or failed) is announced; the payload is its id. */
export const RENDER_FINISHED_CHANNEL = "pictor_render_finished";

/** NOTIFY inside the finishing transaction is delivered at commit, so a listener never sees it early. */
async function notifyFinished(client: PgExecutor, id: string): Promise<void> {
  await client.query("SELECT pg_notify($1, $2)", [RENDER_FINISHED_CHANNEL, id]);
}

export interface PgRenderStoreOptions {
  /**
   * Runs inside the acceptance transaction after the charge and the insert, on the same connection:
   * the place for pg-boss `send(..., { db })`, so a render is charged and enqueued together or not at all.
   */
  enqueueInTransaction?: (client: PgExecutor, render: RenderRecord) => Promise<void>;
}

export function createPgRenderStore(pool: pg.Pool, options: PgRenderStoreOptions = {}): RenderStore {
  return {
    accept(r) {
      return withTransaction(pool, async (client) => {
        // The account row lock serialises acceptances of one account across every process, so two
        // of them can never both spend the same credit (READ COMMITTED alone would let them).
        const account = await client.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [r.accountId]);
        if (account.rowCount === 0) throw new Error(`render ${r.id} names an unknown account`);
        const balance = await balanceOf(client, r.accountId);
        if (balance < r.creditsCharged) return { accepted: false as const, balance };
        await client.query(
          "INSERT INTO ledger (account_id, kind, amount, render_id, note, created_at) VALUES ($1, 'charge', $2, $3, NULL, $4)",
          [r.accountId, -r.creditsCharged, r.id, r.createdAt],
        );
        await client.query(renderInsert("$"), renderInsertValues(r));
        await options.enqueueInTransaction?.(client, { ...r, status: "queued" });
        return { accepted: true as const };
      });
    },
    async get(accountId, id) {
      const { rows } = await pool.query(`${RENDER_SELECT} WHERE id = $1 AND account_id = $2`, [
        id,
        accountId,
      ]);
      return rows[0] ? toRender(rows[0]) : null;
    },
    async findByIdempotencyKey(accountId, idempotencyKey, since) {
      const { rows } = await pool.query(renderByIdempotencyKey("$"), [accountId, idempotencyKey, since]);
      return rows[0] ? toRender(rows[0]) : null;
    },
    async pending() {
      const { rows } = await pool.query(
        "SELECT id, account_id FROM renders WHERE status IN ('queued', 'rendering') ORDER BY seq",
      );
      return rows.map((r) => ({ id: String(r.id), accountId: String(r.account_id) }));
    },
    claim(id) {
      return withTransaction(pool, async (client) => {
        const r = await lockPending(client, id);
        if (!r) return null;
        await client.query("UPDATE renders SET status = 'rendering' WHERE id = $1", [id]);
        const v = await client.query(
          "SELECT document FROM template_versions WHERE template_id = $1 AND version = $2",
          [r.template_id, r.template_version],
        );
        if (!v.rows[0]) throw new Error(`render ${id} pins a missing template version`);
        const { rows } = await client.query(`${RENDER_SELECT} WHERE id = $1`, [id]);
        return { render: toRender(rows[0] as Row), document: v.rows[0].document };
      });
    },
    complete(id, { asset, warnings, at, callback }) {
      return withTransaction(pool, async (client) => {
        if (!(await lockPending(client, id))) return false;
        await insertAsset(client, asset);
        await client.query(
          "UPDATE renders SET status = 'completed', asset_id = $1, warnings = $2, completed_at = $3 WHERE id = $4",
          [asset.id, json(warnings), at, id],
        );
        // Same commit: a completed render with a webhook_url always has its event, a failed one never.
        if (callback) await insertWebhookEvent(client, callback);
        await notifyFinished(client, id);
        return true;
      });
    },
    failAndRefund(id, error, at) {
      return withTransaction(pool, async (client) => {
        const r = await lockPending(client, id);
        if (!r) return false;
        await client.query(
          "UPDATE renders SET status = 'failed', error_code = $1, error_message = $2, completed_at = $3 WHERE id = $4",
          [error.code, error.message, at, id],
        );
        // The row lock already makes this run once; the unique key keeps it so if that ever changes.
        await client.query(
          `INSERT INTO ledger (account_id, kind, amount, render_id, note, created_at)
           VALUES ($1, 'refund', $2, $3, $4, $5) ON CONFLICT (render_id, kind) DO NOTHING`,
          [r.account_id, r.credits_charged, id, error.code, at],
        );
        await notifyFinished(client, id);
        return true;
      });
    },
    async recordOutputHash(asset, sha256) {
      await pool.query(
        `INSERT INTO asset_files (asset_id, account_id, sha256, render_output)
         SELECT id, account_id, $1, true FROM assets WHERE id = $2 AND account_id = $3
         ON CONFLICT (asset_id) DO NOTHING`,
        [sha256, asset.id, asset.accountId],
      );
    },
  };
}
