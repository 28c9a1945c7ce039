import type pg from "pg";
import type { RenderJob, RenderRecord, RenderStore } from "../../ports/render-store.ts";
import {
  ASSET_INSERT_COLUMNS,
  assetInsertValues,
  placeholders,
  RENDER_SELECT,
  type Row,
  renderByIdempotencyKey,
  renderFromRow,
  renderInsert,
  renderInsertValues,
} from "../sql-rows.ts";
import { indexAssetTerms } from "./asset-store.ts";
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
   * Caps how many of the account's queued renders `chargeAndRecord` counts (the count is a fairness
   * priority of the render's job; past the cap they all rank alike). Default 1,000.
   */
  queuedCountCap?: number;
}

export const DEFAULT_QUEUED_COUNT_CAP = 1000;

/**
 * Inside a transaction: checks the balance covers the render, appends the charge and inserts the
 * render. `queuedAhead`: the account's renders queued before this one (capped), for the job's
 * fairness priority. The dispatcher (dispatcher.ts) enqueues the job in the same transaction.
 */
export async function chargeAndRecord(
  client: PgExecutor,
  r: RenderRecord,
  queuedCountCap: number,
): Promise<{ accepted: false; balance: number } | { accepted: true; queuedAhead: number }> {
  // The account row lock serialises acceptances of one account across every process, so two
  // of them can never both spend the same credit (READ COMMITTED alone would let them).
  const account = await client.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [r.accountId]);
  if (account.rowCount === 0) throw new Error(`render ${r.id} names an unknown account`);
  // Read after the lock (a statement's snapshot predates its own lock wait). The same round trip
  // counts the account's renders waiting in the queue: the fairness priority of the job.
  const { rows } = await client.query(
    `SELECT (SELECT balance FROM account_balances WHERE account_id = $1) AS balance,
            (SELECT count(*) FROM (SELECT 1 FROM renders WHERE account_id = $1 AND status = 'queued' LIMIT $2) q) AS queued`,
    [r.accountId, queuedCountCap],
  );
  const balance = Number(rows[0]?.balance ?? 0);
  if (balance < r.creditsCharged) return { accepted: false, balance };
  // The charge and the render in one statement (one round trip): the ledger's trigger keeps the
  // balance, whose CHECK refuses to go below zero.
  const values = renderInsertValues(r);
  const n = values.length;
  await client.query(
    `WITH charge AS (
       INSERT INTO ledger (account_id, kind, amount, render_id, note, created_at)
       VALUES ($${n + 1}, 'charge', $${n + 2}, $${n + 3}, NULL, $${n + 4})
     )
     ${renderInsert("$")}`,
    [...values, r.accountId, -r.creditsCharged, r.id, r.createdAt],
  );
  return { accepted: true, queuedAhead: Number(rows[0]?.queued ?? 0) };
}

/** Thrown inside a transaction to roll it back when the render turns out finished already. */
class AlreadyFinished extends Error {}

export function createPgRenderStore(pool: pg.Pool, options: PgRenderStoreOptions = {}): RenderStore {
  const queuedCountCap = options.queuedCountCap ?? DEFAULT_QUEUED_COUNT_CAP;
  return {
    accept(r) {
      // Charged and recorded only: the PostgreSQL dispatcher's submit does this and enqueues the
      // render's job in one transaction; this alone is for the store's own contract tests.
      return withTransaction(pool, async (client) => {
        const outcome = await chargeAndRecord(client, r, queuedCountCap);
        return outcome.accepted ? { accepted: true as const } : outcome;
      });
    },
    async get(accountId, id) {
      const { rows } = await pool.query(`${RENDER_SELECT} WHERE id = $1 AND account_id = $2`, [
        id,
        accountId,
      ]);
      return rows[0] ? toRender(rows[0]) : null;
    },
    async getMany(accountId, ids) {
      if (ids.length === 0) return [];
      const { rows } = await pool.query(`${RENDER_SELECT} WHERE id = ANY($1::text[]) AND account_id = $2`, [
        [...ids],
        accountId,
      ]);
      return rows.map(toRender);
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
    async claim(id) {
      // One statement (its own transaction): a worker claims a render in one round trip.
      const { rows } = await pool.query(
        `WITH claimed AS (
           UPDATE renders SET status = 'rendering' WHERE id = $1 AND status IN ('queued', 'rendering') RETURNING *
         )
         SELECT claimed.*, NULL::integer AS refunded, v.document AS pinned_document
           FROM claimed LEFT JOIN template_versions v
             ON v.template_id = claimed.template_id AND v.version = claimed.template_version`,
        [id],
      );
      const r = rows[0] as Row | undefined;
      if (!r) return null;
      if (r.pinned_document === null) throw new Error(`render ${id} pins a missing template version`);
      return { render: toRender(r), document: r.pinned_document as RenderJob["document"] };
    },
    async complete(id, { asset, warnings, at, callback, sha256 }) {
      // One statement: ends the render only if it is pending (the row stays locked to the commit),
      // inserts its output asset and the output's hash, and NOTIFYs (delivered at commit).
      // renders.asset_id has no foreign key, so the render may name the asset first.
      const values = assetInsertValues(asset);
      const n = values.length;
      const completion: [string, unknown[]] = [
        `WITH ended AS (
           UPDATE renders SET status = 'completed', asset_id = $${n + 1}, warnings = $${n + 2}, completed_at = $${n + 3}
            WHERE id = $${n + 4} AND status IN ('queued', 'rendering') RETURNING id
         ), notified AS (
           SELECT pg_notify($${n + 5}, id) FROM ended
         ), inserted AS (
           INSERT INTO assets (${ASSET_INSERT_COLUMNS})
           SELECT ${placeholders(n, "$")} FROM ended RETURNING id, account_id
         ), hashed AS (
           INSERT INTO asset_files (asset_id, account_id, sha256, render_output)
           SELECT id, account_id, $${n + 6}, true FROM inserted WHERE $${n + 6}::text IS NOT NULL
         )
         SELECT count(*)::int AS ended FROM notified`,
        [...values, asset.id, json(warnings), at, id, RENDER_FINISHED_CHANNEL, sha256 ?? null],
      ];
      const rest = callback !== undefined || asset.tags.length > 0 || Object.keys(asset.metadata).length > 0;
      // Nothing else to write (the common case): the statement is the whole unit of work, committed alone.
      if (!rest) return (await pool.query(...completion)).rows[0]?.ended === 1;
      try {
        return await withTransaction(pool, async (client) => {
          // Finished already (another delivery of its job): nothing was written.
          if ((await client.query(...completion)).rows[0]?.ended !== 1) throw new AlreadyFinished();
          await indexAssetTerms(client, asset);
          // Same commit: a completed render with a webhook_url always has its event, a failed one never.
          if (callback) await insertWebhookEvent(client, callback);
          return true;
        });
      } catch (error) {
        if (error instanceof AlreadyFinished) return false;
        throw error;
      }
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
  };
}
