import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type {
  AssetLibrary,
  AssetQuery,
  FontFaceInfo,
  LibraryAsset,
} from "../../domain/assets/asset-library.ts";
import { folderRangeEnd } from "../../domain/assets/folders.ts";
import { indexAssetTerms, unindexAssetTerms } from "./asset-schema.ts";
import { insertAsset, toAsset } from "./asset-store.ts";
import { json, transaction } from "./database.ts";

type Row = Record<string, unknown>;

const SELECT = `SELECT a.*, f.sha256 AS file_sha256, f.font_family, f.font_weight, f.font_style
  FROM assets a LEFT JOIN asset_files f ON f.asset_id = a.id`;

const toLibraryAsset = (r: Row): LibraryAsset => ({
  ...toAsset(r),
  sha256: r.file_sha256 === null || r.file_sha256 === undefined ? null : String(r.file_sha256),
  font:
    r.font_family === null || r.font_family === undefined
      ? null
      : {
          family: String(r.font_family),
          weight: Number(r.font_weight),
          style: r.font_style === "italic" ? "italic" : "normal",
        },
});

/** The asset library on the embedded default. Tables: `assets` plus those of asset-schema.ts. */
export function createSqliteAssetLibrary(db: DatabaseSync): AssetLibrary {
  const get = (accountId: string, id: string) => {
    const r = db.prepare(`${SELECT} WHERE a.id = ? AND a.account_id = ?`).get(id, accountId);
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
        .prepare(`${SELECT} WHERE f.account_id = ? AND f.sha256 = ? AND a.render_id IS NULL LIMIT 1`)
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

    async query(accountId, query) {
      const { text, params } = buildQuery(accountId, query);
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

/**
 * One statement per query shape. Each tag and metadata filter is an `id IN (index range)`: SQLite
 * drives from one of them and probes the others, and the (account_id, created_at, id) index serves
 * the newest-first order and the keyset cursor. Fetches limit + 1 rows to know whether a next page
 * exists.
 */
export function buildQuery(accountId: string, q: AssetQuery): { text: string; params: SQLInputValue[] } {
  const where: string[] = ["a.account_id = ?"];
  const params: SQLInputValue[] = [accountId];
  if (q.folder !== null) {
    if (q.recursive && q.folder !== "") {
      where.push("a.folder >= ? AND a.folder < ?");
      params.push(q.folder, folderRangeEnd(q.folder));
    } else if (!q.recursive) {
      where.push("a.folder = ?");
      params.push(q.folder);
    }
  }
  if (q.contentTypes.length > 0) {
    where.push(`a.content_type IN (${q.contentTypes.map(() => "?").join(", ")})`);
    params.push(...q.contentTypes);
  }
  const ops = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
  for (const op of ["gt", "gte", "lt", "lte"] as const) {
    const value = q.created[op];
    if (value === undefined) continue;
    where.push(`a.created_at ${ops[op]} ?`);
    params.push(value);
  }
  for (const tag of q.tagsAll) {
    where.push("a.id IN (SELECT asset_id FROM asset_tags WHERE account_id = ? AND tag = ?)");
    params.push(accountId, tag);
  }
  if (q.tagsAny.length > 0) {
    where.push(
      `a.id IN (SELECT asset_id FROM asset_tags WHERE account_id = ? AND tag IN (${q.tagsAny.map(() => "?").join(", ")}))`,
    );
    params.push(accountId, ...q.tagsAny);
  }
  for (const [key, value] of Object.entries(q.metadata)) {
    where.push(
      "a.id IN (SELECT asset_id FROM asset_metadata WHERE account_id = ? AND key = ? AND value = ?)",
    );
    params.push(accountId, key, value);
  }
  if (q.cursor) {
    where.push("(a.created_at < ? OR (a.created_at = ? AND a.id < ?))");
    params.push(q.cursor.createdAt, q.cursor.createdAt, q.cursor.id);
  }
  params.push(q.limit + 1);
  return {
    text: `${SELECT} WHERE ${where.join(" AND ")} ORDER BY a.created_at DESC, a.id DESC LIMIT ?`,
    params,
  };
}
