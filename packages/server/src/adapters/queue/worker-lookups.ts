import pg from "pg";
import type { AccountFontFace } from "../../domain/assets/account-fonts.ts";
import type { BlobStore } from "../../ports/blob-store.ts";
import { createFileBlobStore } from "../files/blob-store.ts";
import { S3BlobStore } from "../s3/blob-store.ts";
import { sqliteAssetLookups } from "../sqlite/asset-fonts.ts";
import type { RenderWorkerData } from "./render-messages.ts";

export interface WorkerLookups {
  /** The blob of an asset of this account; null for another account's asset or none. */
  blobKeyOf(accountId: string, assetId: string): Promise<string | null>;
  facesOf(accountId: string, family: string): Promise<AccountFontFace[]>;
}

/**
 * What a render thread reads besides the task: asset rows from SQLite or PostgreSQL. Each thread has
 * its own connection(s); PostgreSQL gets two per thread, since a render asks for a handful of rows.
 */
export function openWorkerLookups(data: RenderWorkerData): WorkerLookups {
  if (data.postgresUrl) {
    const pool = new pg.Pool({
      connectionString: data.postgresUrl,
      max: 2,
      application_name: "pictor-render",
    });
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
    };
  }
  if (data.databaseFile) return sqliteAssetLookups(data.databaseFile);
  throw new Error("render worker needs databaseFile or postgresUrl");
}

/** The files store writes outputs blocking and in place: see FileBlobStoreOptions.renderOutputs. */
export function openWorkerBlobs(data: RenderWorkerData, options: { forOutputs: boolean }): BlobStore {
  if (data.s3) return new S3BlobStore(data.s3);
  if (data.blobRoot) return createFileBlobStore(data.blobRoot, { renderOutputs: options.forOutputs });
  throw new Error("render worker needs blobRoot or s3");
}
