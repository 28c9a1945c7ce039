import type { DatabaseSync } from "node:sqlite";
import type { AssetLibrary, FontFaceInfo, LibraryAsset } from "../../ports/asset-library.ts";
import { libraryAssetFromRow } from "../sql-rows.ts";
import { ASSET_COLUMNS, planAssetQuery } from "./asset-query.ts";
import { indexAssetTerms, unindexAssetTerms } from "./asset-schema.ts";
import { insertAsset } from "./asset-store.ts";
import { json, sqliteColumns, transaction } from "./database.ts";
import { sql } from "./statements.ts";

type Row = Record<string, unknown>;

const SELECT = `SELECT ${ASSET_COLUMNS} FROM assets a LEFT JOIN asset_files f ON f.asset_id = a.id`;

const toLibraryAsset = (r: Row): LibraryAsset => libraryAssetFromRow(r, sqliteColumns);

/** The asset library on the embedded default. Tables: `assets` plus those of asset-schema.ts. */
export function createSqliteAssetLibrary(db: DatabaseSync): AssetLibrary {
  const get = (accountId: string, id: string) => {
    const r = sql(db, `${SELECT} WHERE a.id = ? AND a.account_id = ?`).get(id, accountId);
    return r ? toLibraryAsset(r) : null;
  };

  return {
    async insert(asset, file) {
      transaction(db, () => {
        insertAsset(db, asset);
        db.prepare(
          `INSERT INTO asset_files (asset_id, account_id, sha256, font_family, font_weight, font_style)
           VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(
          asset.id,
          asset.accountId,
          file.sha256,
          file.font?.family ?? null,
          file.font?.weight ?? null,
          file.font?.style ?? null,
        );
      });
    },

    async get(accountId, id) {
      return get(accountId, id);
    },

    async findBySha256(accountId, sha256) {
      const r = db
        .prepare(
          `${SELECT} WHERE f.account_id = ? AND f.sha256 = ? AND f.render_output = 0 AND a.render_id IS NULL LIMIT 1`,
        )
        .get(accountId, sha256);
      return r ? toLibraryAsset(r) : null;
    },

    async update(accountId, id, patch) {
      return transaction(db, () => {
        const current = get(accountId, id);
        if (!current) return null;
        const next: LibraryAsset = {
          ...current,
          ...(patch.folder !== undefined ? { folder: patch.folder } : {}),
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.tags !== undefined ? { tags: patch.tags } : {}),
          ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
        };
        db.prepare("UPDATE assets SET folder = ?, name = ?, tags = ?, metadata = ? WHERE id = ?").run(
          next.folder,
          next.name,
          json(next.tags),
          json(next.metadata),
          id,
        );
        unindexAssetTerms(db, id);
        indexAssetTerms(db, next);
        return next;
      });
    },

    async delete(accountId, id) {
      return transaction(db, () => {
        const current = get(accountId, id);
        if (!current) return null;
        unindexAssetTerms(db, id);
        db.prepare("DELETE FROM asset_files WHERE asset_id = ?").run(id);
        // The render keeps its record; its asset link becomes null once the output is deleted.
        db.prepare("UPDATE renders SET asset_id = NULL WHERE asset_id = ?").run(id);
        db.prepare("DELETE FROM assets WHERE id = ?").run(id);
        return current;
      });
    },

    async storedBytes(accountId) {
      const row = sql(db, "SELECT COALESCE(SUM(byte_size), 0) AS n FROM assets WHERE account_id = ?").get(
        accountId,
      ) as { n: number } | undefined;
      return Number(row?.n ?? 0);
    },

    async isBlobReferenced(blobKey) {
      return sql(db, "SELECT 1 FROM assets WHERE blob_key = ? LIMIT 1").get(blobKey) !== undefined;
    },

    async query(accountId, query) {
      const { text, params } = planAssetQuery(db, accountId, query);
      const rows = db.prepare(text).all(...params);
      const assets = rows.slice(0, query.limit).map(toLibraryAsset);
      const last = assets.at(-1);
      return {
        assets,
        next: rows.length > query.limit && last ? { createdAt: last.createdAt, id: last.id } : null,
      };
    },

    async fonts(accountId) {
      const rows = db
        .prepare(
          `${SELECT} WHERE f.account_id = ? AND f.font_family IS NOT NULL ORDER BY a.created_at DESC, a.id DESC`,
        )
        .all(accountId);
      return rows
        .map(toLibraryAsset)
        .filter((a): a is LibraryAsset & { font: FontFaceInfo } => a.font !== null);
    },
  };
}
