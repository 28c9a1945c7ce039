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
  /** The asset, if it is the account's. */
  const ownAsset = (accountId: string, id: string): AssetRecord | null => {
    const r = sql(db, "SELECT * FROM assets WHERE id = ? AND account_id = ?").get(id, accountId);
    return r ? toAsset(r) : null;
  };
  return {
    async insert(asset) {
      insertAsset(db, asset);
    },
    async get(accountId, id) {
      return ownAsset(accountId, id);
    },
    async getMany(accountId, ids) {
      // In-process: a prepared lookup per id costs microseconds, no round trip to save.
      return ids.flatMap((id) => ownAsset(accountId, id) ?? []);
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
