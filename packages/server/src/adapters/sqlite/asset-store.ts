import type { DatabaseSync } from "node:sqlite";
import type { AssetRecord, AssetStore } from "../../ports/asset-store.ts";
import { indexAssetTerms } from "./asset-schema.ts";
import { json, parse } from "./database.ts";
import { sql } from "./statements.ts";

type Row = Record<string, unknown>;

export const toAsset = (r: Row): AssetRecord => ({
  id: String(r.id),
  accountId: String(r.account_id),
  folder: String(r.folder),
  name: String(r.name),
  contentType: String(r.content_type),
  byteSize: Number(r.byte_size),
  width: r.width === null ? null : Number(r.width),
  height: r.height === null ? null : Number(r.height),
  blobKey: String(r.blob_key),
  token: String(r.token),
  etag: String(r.etag),
  metadata: parse(r.metadata),
  tags: parse(r.tags),
  renderId: (r.render_id as string | null) ?? null,
  createdAt: String(r.created_at),
});

export function insertAsset(db: DatabaseSync, a: AssetRecord): void {
  sql(
    db,
    `INSERT INTO assets (id, account_id, folder, name, content_type, byte_size, width, height, blob_key, token, etag,
       metadata, tags, render_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    a.id,
    a.accountId,
    a.folder,
    a.name,
    a.contentType,
    a.byteSize,
    a.width,
    a.height,
    a.blobKey,
    a.token,
    a.etag,
    json(a.metadata),
    json(a.tags),
    a.renderId,
    a.createdAt,
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
