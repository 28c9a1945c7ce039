import type { DatabaseSync } from "node:sqlite";
import type { OutputFormat, RenderRecord, RenderStatus, RenderStore } from "../../ports/render-store.ts";
import { insertAsset } from "./asset-store.ts";
import { balanceOf } from "./balances.ts";
import { json, parse, transaction } from "./database.ts";
import { sql } from "./statements.ts";
import { insertWebhookEvent } from "./webhook-outbox.ts";

type Row = Record<string, unknown>;

const toRender = (r: Row): RenderRecord => ({
  id: String(r.id),
  accountId: String(r.account_id),
  templateId: String(r.template_id),
  templateKey: String(r.template_key),
  templateVersion: Number(r.template_version),
  frame: String(r.frame),
  scale: Number(r.scale),
  format: r.format as OutputFormat,
  quality: r.quality === null ? null : Number(r.quality),
  width: Number(r.width),
  height: Number(r.height),
  values: parse(r.slot_values),
  metadata: parse(r.metadata),
  tags: parse(r.tags),
  webhookUrl: (r.webhook_url as string | null) ?? null,
  status: r.status as RenderStatus,
  creditsCharged: Number(r.credits_charged),
  creditsRefunded: Number(r.refunded ?? 0),
  error: r.error_code ? { code: String(r.error_code), message: String(r.error_message) } : null,
  warnings: parse(r.warnings),
  assetId: (r.asset_id as string | null) ?? null,
  createdAt: String(r.created_at),
  completedAt: (r.completed_at as string | null) ?? null,
});

const SELECT = `SELECT renders.*,
  (SELECT amount FROM ledger WHERE ledger.render_id = renders.id AND kind = 'refund') AS refunded
  FROM renders`;

export function createSqliteRenderStore(db: DatabaseSync): RenderStore {
  const insert = sql(
    db,
    `INSERT INTO renders (id, account_id, template_id, template_key, template_version, frame, scale, format, quality,
       width, height, slot_values, metadata, tags, webhook_url, status, credits_charged, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)`,
  );
  const charge = sql(
    db,
    "INSERT INTO ledger (account_id, kind, amount, render_id, note, created_at) VALUES (?, 'charge', ?, ?, NULL, ?)",
  );
  const byId = sql(db, `${SELECT} WHERE id = ?`);

  return {
    async accept(r) {
      // The write lock is held from the balance read to the commit, so two acceptances (in this
      // process or another) can never both spend the same credit.
      return transaction(db, () => {
        const balance = balanceOf(db, r.accountId);
        if (balance < r.creditsCharged) return { accepted: false as const, balance };
        charge.run(r.accountId, -r.creditsCharged, r.id, r.createdAt);
        insert.run(
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
          json(r.values),
          json(r.metadata),
          json(r.tags),
          r.webhookUrl,
          r.creditsCharged,
          r.createdAt,
        );
        return { accepted: true as const };
      });
    },
    async get(accountId, id) {
      const r = byId.get(id);
      return r && r.account_id === accountId ? toRender(r) : null;
    },
    async pending() {
      return sql(
        db,
        "SELECT id, account_id FROM renders WHERE status IN ('queued', 'rendering') ORDER BY seq",
      )
        .all()
        .map((r) => ({ id: String(r.id), accountId: String(r.account_id) }));
    },
    async claim(id) {
      return transaction(db, () => {
        const r = byId.get(id);
        if (!r || (r.status !== "queued" && r.status !== "rendering")) return null;
        sql(db, "UPDATE renders SET status = 'rendering' WHERE id = ?").run(id);
        const v = sql(db, "SELECT document FROM template_versions WHERE template_id = ? AND version = ?").get(
          r.template_id as string,
          r.template_version as number,
        );
        if (!v) throw new Error(`render ${id} pins a missing template version`);
        return { render: { ...toRender(r), status: "rendering" as const }, document: parse(v.document) };
      });
    },
    async complete(id, { asset, sha256, warnings, at, callback }) {
      transaction(db, () => {
        const r = byId.get(id);
        if (!r || (r.status !== "queued" && r.status !== "rendering")) return;
        insertAsset(db, asset);
        sql(
          db,
          "INSERT INTO asset_files (asset_id, account_id, sha256, render_output) VALUES (?, ?, ?, 1)",
        ).run(asset.id, asset.accountId, sha256);
        sql(
          db,
          "UPDATE renders SET status = 'completed', asset_id = ?, warnings = ?, completed_at = ? WHERE id = ?",
        ).run(asset.id, json(warnings), at, id);
        if (callback) insertWebhookEvent(db, callback);
      });
    },
    async failAndRefund(id, error, at) {
      transaction(db, () => {
        const r = byId.get(id);
        if (!r || (r.status !== "queued" && r.status !== "rendering")) return;
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
      });
    },
  };
}
