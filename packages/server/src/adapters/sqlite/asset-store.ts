import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { AssetRecord, AssetStore } from "../../ports/asset-store.ts";
import {
  ASSET_INSERT_COLUMNS,
  assetFromRow,
  assetInsertValues,
  placeholders,
  type Row,
} from "../sql-rows.ts";
import { indexAssetTerms } from "./asset-schema.ts";
import { sqliteColumns } from "./database.ts";
import { sql } from "./statements.ts";

export const toAsset = (r: Row): AssetRecord => assetFromRow(r, sqliteColumns);

export function insertAsset(db: DatabaseSync, a: AssetRecord): void {
  sql(db, `INSERT INTO assets (${ASSET_INSERT_COLUMNS}) VALUES (${placeholders(15, "?")})`).run(
    ...(assetInsertValues(a) as SQLInputValue[]),
  );
  indexAssetTerms(db, a);
}

export function createSqliteAssetStore(db: DatabaseSync): AssetStore {
  return {
    async insert(asset) {
      insertAsset(db, asset);
    },
    async get(accountId, id) {
      const r = sql(db, "SELECT * FROM assets WHERE id = ? AND account_id = ?").get(id, accountId);
      return r ? toAsset(r) : null;
    },
    async getMany(accountId, ids) {
      // In-process: a prepared lookup per id costs microseconds, no round trip to save.
      const byId = sql(db, "SELECT * FROM assets WHERE id = ? AND account_id = ?");
      return ids.flatMap((id) => {
        const r = byId.get(id, accountId);
        return r ? [toAsset(r)] : [];
      });
    },
    async getById(id) {
      const r = sql(db, "SELECT * FROM assets WHERE id = ?").get(id);
      return r ? toAsset(r) : null;
    },
    async getByToken(token) {
      const r = sql(db, "SELECT * FROM assets WHERE token = ?").get(token);
      return r ? toAsset(r) : null;
    },
  };
}
