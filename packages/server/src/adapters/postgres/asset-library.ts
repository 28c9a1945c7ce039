import type pg from "pg";
import { folderRangeEnd } from "../../domain/assets/folders.ts";
import type { AssetLibrary, AssetQuery, FontFaceInfo, LibraryAsset } from "../../ports/asset-library.ts";
import { libraryAssetFromRow } from "../sql-rows.ts";
import { indexAssetTerms, insertAsset } from "./asset-store.ts";
import { type PgExecutor, postgresColumns, withTransaction } from "./pool.ts";

type Row = Record<string, unknown>;

const SELECT = `SELECT a.*, f.sha256 AS file_sha256, f.font_family, f.font_weight, f.font_style
  FROM assets a LEFT JOIN asset_files f ON f.asset_id = a.id`;

// Ids and folders compare byte by byte, as in SQLite: keyset cursors and the folder range
// ([F, F with its last "/" raised to "0")) must not depend on the database's locale.
const C = 'COLLATE "C"';

const toLibraryAsset = (r: Row): LibraryAsset => libraryAssetFromRow(r, postgresColumns);

async function getOne(
  db: PgExecutor,
  accountId: string,
  id: string,
  lock = false,
): Promise<LibraryAsset | null> {
  const { rows } = await db.query(
    `${SELECT} WHERE a.id = $1 AND a.account_id = $2${lock ? " FOR UPDATE OF a" : ""}`,
    [id, accountId],
  );
  return rows[0] ? toLibraryAsset(rows[0]) : null;
}

/** The asset library on PostgreSQL; same tables and semantics as adapters/sqlite/asset-library.ts. */
export function createPgAssetLibrary(pool: pg.Pool): AssetLibrary {
  return {
    async insert(asset, file) {
      await withTransaction(pool, async (client) => {
        await insertAsset(client, asset);
        await client.query(
          `INSERT INTO asset_files (asset_id, account_id, sha256, font_family, font_weight, font_style)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [
            asset.id,
            asset.accountId,
            file.sha256,
            file.font?.family ?? null,
            file.font?.weight ?? null,
            file.font?.style ?? null,
          ],
        );
      });
    },

    get: (accountId, id) => getOne(pool, accountId, id),

    async findBySha256(accountId, sha256) {
      const { rows } = await pool.query(
        `${SELECT} WHERE f.account_id = $1 AND f.sha256 = $2 AND NOT f.render_output AND a.render_id IS NULL LIMIT 1`,
        [accountId, sha256],
      );
      return rows[0] ? toLibraryAsset(rows[0]) : null;
    },

    update(accountId, id, patch) {
      return withTransaction(pool, async (client) => {
        const current = await getOne(client, accountId, id, true);
        if (!current) return null;
        const next: LibraryAsset = {
          ...current,
          ...(patch.folder !== undefined ? { folder: patch.folder } : {}),
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.tags !== undefined ? { tags: patch.tags } : {}),
          ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
        };
        await client.query(
          "UPDATE assets SET folder = $1, name = $2, tags = $3, metadata = $4 WHERE id = $5",
          [next.folder, next.name, JSON.stringify(next.tags), JSON.stringify(next.metadata), id],
        );
        await unindexAssetTerms(client, id);
        await indexAssetTerms(client, next);
        return next;
      });
    },

    delete(accountId, id) {
      return withTransaction(pool, async (client) => {
        const current = await getOne(client, accountId, id, true);
        if (!current) return null;
        await unindexAssetTerms(client, id);
        await client.query("DELETE FROM asset_files WHERE asset_id = $1", [id]);
        // The render keeps its record; its asset link becomes null once the output is deleted.
        await client.query("UPDATE renders SET asset_id = NULL WHERE asset_id = $1", [id]);
        await client.query("DELETE FROM assets WHERE id = $1", [id]);
        return current;
      });
    },

    async storedBytes(accountId) {
      const { rows } = await pool.query<{ n: string }>(
        "SELECT COALESCE(SUM(byte_size), 0)::text AS n FROM assets WHERE account_id = $1",
        [accountId],
      );
      return Number(rows[0]?.n ?? 0);
    },

    async isBlobReferenced(blobKey) {
      const { rowCount } = await pool.query("SELECT 1 FROM assets WHERE blob_key = $1 LIMIT 1", [blobKey]);
      return (rowCount ?? 0) > 0;
    },

    async query(accountId, query) {
      const { text, params } = buildQuery(accountId, query);
      const { rows } = await pool.query(text, params);
      const assets = rows.slice(0, query.limit).map(toLibraryAsset);
      const last = assets.at(-1);
      return {
        assets,
        next: rows.length > query.limit && last ? { createdAt: last.createdAt, id: last.id } : null,
      };
    },

    async fonts(accountId) {
      const { rows } = await pool.query(
        `${SELECT} WHERE f.account_id = $1 AND f.font_family IS NOT NULL ORDER BY a.created_at DESC, a.id ${C} DESC`,
        [accountId],
      );
      return rows
        .map(toLibraryAsset)
        .filter((a): a is LibraryAsset & { font: FontFaceInfo } => a.font !== null);
    },
  };
}

async function unindexAssetTerms(db: PgExecutor, assetId: string): Promise<void> {
  await db.query("DELETE FROM asset_tags WHERE asset_id = $1", [assetId]);
  await db.query("DELETE FROM asset_metadata WHERE asset_id = $1", [assetId]);
}

/**
 * One statement per query shape, as in SQLite: each tag and metadata filter is an `id IN (index
 * range)` over the account-first index tables, and (account_id, created_at, id) serves the newest-first
 * order and the keyset cursor. Fetches limit + 1 rows to know whether a next page exists.
 */
export function buildQuery(accountId: string, q: AssetQuery): { text: string; params: unknown[] } {
  const params: unknown[] = [accountId];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = ["a.account_id = $1"];
  if (q.folder !== null) {
    if (q.recursive && q.folder !== "") {
      where.push(`a.folder ${C} >= ${p(q.folder)} AND a.folder ${C} < ${p(folderRangeEnd(q.folder))}`);
    } else if (!q.recursive) {
      where.push(`a.folder = ${p(q.folder)}`);
    }
  }
  if (q.contentTypes.length > 0) where.push(`a.content_type = ANY(${p(q.contentTypes)}::text[])`);
  const ops = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
  for (const op of ["gt", "gte", "lt", "lte"] as const) {
    const value = q.created[op];
    if (value !== undefined) where.push(`a.created_at ${ops[op]} ${p(value)}::timestamptz`);
  }
  for (const tag of q.tagsAll) {
    where.push(`a.id IN (SELECT asset_id FROM asset_tags WHERE account_id = $1 AND tag = ${p(tag)})`);
  }
  if (q.tagsAny.length > 0) {
    where.push(
      `a.id IN (SELECT asset_id FROM asset_tags WHERE account_id = $1 AND tag = ANY(${p(q.tagsAny)}::text[]))`,
    );
  }
  for (const [key, value] of Object.entries(q.metadata)) {
    where.push(
      `a.id IN (SELECT asset_id FROM asset_metadata WHERE account_id = $1 AND key = ${p(key)} AND value = ${p(value)})`,
    );
  }
  if (q.cursor) {
    const at = p(q.cursor.createdAt);
    where.push(
      `(a.created_at < ${at}::timestamptz OR (a.created_at = ${at}::timestamptz AND a.id ${C} < ${p(q.cursor.id)}))`,
    );
  }
  return {
    text: `${SELECT} WHERE ${where.join(" AND ")} ORDER BY a.created_at DESC, a.id ${C} DESC LIMIT ${p(q.limit + 1)}`,
    params,
  };
}
