import pg from "pg";
import type { RenderLookups } from "../../ports/render-lookups.ts";

/**
 * A render thread's asset lookups on PostgreSQL: two connections per thread, since a render asks for
 * a handful of rows.
 */
export function createPgRenderLookups(url: string): RenderLookups & { close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 2, application_name: "pictor-render" });
  pool.on("error", () => {});
  return {
    async blobKeyOf(accountId, assetId) {
      const { rows } = await pool.query("SELECT blob_key FROM assets WHERE id = $1 AND account_id = $2", [
        assetId,
        accountId,
      ]);
      return rows[0] ? String(rows[0].blob_key) : null;
    },
    async facesOf(accountId, family) {
      const { rows } = await pool.query(
        `SELECT f.asset_id, f.font_family, a.blob_key FROM asset_files f JOIN assets a ON a.id = f.asset_id
         WHERE f.account_id = $1 AND f.font_family = $2 ORDER BY f.asset_id COLLATE "C"`,
        [accountId, family],
      );
      return rows.map((r) => ({
        assetId: String(r.asset_id),
        family: String(r.font_family),
        blobKey: String(r.blob_key),
      }));
    },
    close: () => pool.end(),
  };
}
