import type { DatabaseSync, SQLInputValue } from "node:sqlite";
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
import { balanceOf } from "./balances.ts";
import { json, sqliteColumns, transaction } from "./database.ts";
import { sql } from "./statements.ts";
import { readTemplateVersion } from "./template-store.ts";
import { insertWebhookEvent } from "./webhook-outbox.ts";

const toRender = (r: Row): RenderRecord => renderFromRow(r, sqliteColumns);

export function createSqliteRenderStore(db: DatabaseSync): RenderStore {
  const insert = sql(db, renderInsert("?"));

  const charge = sql(
    db,
    "INSERT INTO ledger (account_id, kind, amount, render_id, note, created_at) VALUES (?, 'charge', ?, ?, NULL, ?)",
  );
  const byId = sql(db, `${RENDER_SELECT} WHERE id = ?`);
  /** The render, if it is the account's. */
  const ownRender = (accountId: string, id: string): RenderRecord | null => {
    const r = byId.get(id);
    return r && r.account_id === accountId ? toRender(r) : null;
  };
  // What finishing a render needs to know of it: the whole row (and its refund) would be read for
  // nothing on every completion.
  const endingFacts = sql(db, "SELECT status, account_id, credits_charged FROM renders WHERE id = ?");
  const claimPending = sql(
    db,
    "UPDATE renders SET status = 'rendering' WHERE id = ? AND status IN ('queued', 'rendering') RETURNING *",
  );
  const outputHash = sql(
    db,
    `INSERT INTO asset_files (asset_id, account_id, sha256, render_output)
     SELECT id, account_id, ?, 1 FROM assets WHERE id = ? AND account_id = ?
     ON CONFLICT (asset_id) DO NOTHING`,
  );
  const claimAccepted = sql(
    db,
    "UPDATE renders SET status = 'rendering' WHERE id = ? AND status IN ('queued', 'rendering')",
  );

  return {
    async accept(r) {
      // The write lock is held from the balance read to the commit, so two acceptances (in this
      // process or another) can never both spend the same credit.
      return transaction(db, () => {
        const balance = balanceOf(db, r.accountId);
        if (balance < r.creditsCharged) return { accepted: false as const, balance };
        charge.run(r.accountId, -r.creditsCharged, r.id, r.createdAt);
        insert.run(...(renderInsertValues(r) as SQLInputValue[]));
        return { accepted: true as const };
      });
    },
    async get(accountId, id) {
      return ownRender(accountId, id);
    },
    async getMany(accountId, ids) {
      // In-process: a prepared lookup per id costs microseconds, no round trip to save.
      return ids.flatMap((id) => ownRender(accountId, id) ?? []);
    },
    async findByIdempotencyKey(accountId, idempotencyKey, since) {
      const r = sql(db, renderByIdempotencyKey("?")).get(accountId, idempotencyKey, since);
      return r ? toRender(r) : null;
    },
    async pending() {
      return sql(
        db,
        "SELECT id, account_id FROM renders WHERE status IN ('queued', 'rendering') ORDER BY seq",
      )
        .all()
        .map((r) => ({ id: String(r.id), accountId: String(r.account_id) }));
    },
    async claim(id, accepted) {
      // One statement, so no explicit transaction: a pending render has no refund to read yet.
      // With the accepted record at hand the row is not read back: decoding its 25 columns and JSON
      // was a noticeable part of the API thread's work per render.
      let render: RenderRecord;
      if (accepted) {
        // Accepted as `rendering` (it started at once) a moment ago: nothing to write.
        if (accepted.status !== "rendering" && Number(claimAccepted.run(id).changes) !== 1) return null;
        render = { ...accepted, status: "rendering" };
      } else {
        const r = claimPending.get(id);
        if (!r) return null;
        render = toRender(r);
      }
      const v = readTemplateVersion(db, render.templateId, render.templateVersion);
      if (!v) throw new Error(`render ${id} pins a missing template version`);
      return { render, document: v.document };
    },
    async complete(id, { asset, warnings, at, callback, sha256 }) {
      return transaction(db, () => {
        const r = endingFacts.get(id);
        if (!r || (r.status !== "queued" && r.status !== "rendering")) return false;
        insertAsset(db, asset);
        sql(
          db,
          "UPDATE renders SET status = 'completed', asset_id = ?, warnings = ?, completed_at = ? WHERE id = ?",
        ).run(asset.id, json(warnings), at, id);
        if (callback) insertWebhookEvent(db, callback);
        // Same commit: one write of the database per completion instead of two.
        if (sha256 !== undefined) outputHash.run(sha256, asset.id, asset.accountId);
        return true;
      });
    },
    async failAndRefund(id, error, at) {
      return transaction(db, () => {
        const r = endingFacts.get(id);
        if (!r || (r.status !== "queued" && r.status !== "rendering")) return false;
        sql(
          db,
          "UPDATE renders SET status = 'failed', error_code = ?, error_message = ?, completed_at = ? WHERE id = ?",
        ).run(error.code, error.message, at, id);
        // UNIQUE(render_id, kind) turns a second refund into a no-op even if this ran twice.
        sql(
          db,
          `INSERT INTO ledger (account_id, kind, amount, render_id, note, created_at)
           VALUES (?, 'refund', ?, ?, ?, ?) ON CONFLICT (render_id, kind) DO NOTHING`,
        ).run(r.account_id as string, r.credits_charged as number, id, error.code, at);
        return true;
      });
    },
  };
}
