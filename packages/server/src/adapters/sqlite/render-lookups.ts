import { DatabaseSync } from "node:sqlite";
import type { RenderLookups } from "../../ports/render-lookups.ts";

/** A render thread's asset lookups on the embedded default's SQLite file (its own read-only connection). */
export function createSqliteRenderLookups(databaseFile: string): RenderLookups {
  const db = new DatabaseSync(databaseFile, { readOnly: true });
  db.exec("PRAGMA busy_timeout = 10000");
  // Scoped to the render's account: a template may name `asset://` ids, and only its own count.
  const blobKeyOf = db.prepare("SELECT blob_key FROM assets WHERE id = ? AND account_id = ?");
  // Prepared lazily: a data dir written before the asset library existed has no asset_files yet.
  let facesOf: ReturnType<DatabaseSync["prepare"]> | null = null;
  return {
    blobKeyOf: async (accountId, assetId) => {
      const row = blobKeyOf.get(assetId, accountId);
      return row ? String(row.blob_key) : null;
    },
    facesOf: async (accountId, family) => {
      facesOf ??= db.prepare(
        `SELECT f.asset_id, f.font_family, a.blob_key FROM asset_files f JOIN assets a ON a.id = f.asset_id
         WHERE f.account_id = ? AND f.font_family = ? ORDER BY f.asset_id`,
      );
      return facesOf.all(accountId, family).map((r) => ({
        assetId: String(r.asset_id),
        family: String(r.font_family),
        blobKey: String(r.blob_key),
      }));
    },
  };
}
