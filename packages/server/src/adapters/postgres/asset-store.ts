import type pg from "pg";
import type { AssetRecord, AssetStore } from "../../ports/asset-store.ts";
import {
  ASSET_INSERT_COLUMNS,
  assetFromRow,
  assetInsertValues,
  placeholders,
  type Row,
} from "../sql-rows.ts";
import { type PgExecutor, postgresColumns } from "./pool.ts";

export const toAsset = (r: Row): AssetRecord => assetFromRow(r, postgresColumns);

export async function insertAsset(db: PgExecutor, a: AssetRecord): Promise<void> {
  await db.query(
    `INSERT INTO assets (${ASSET_INSERT_COLUMNS}) VALUES (${placeholders(15, "$")})`,
    assetInsertValues(a),
  );
  await indexAssetTerms(db, a);
}

/**
 * Writes the tag and metadata index rows of one asset (asset library), on the caller's
 * executor so they commit with the record. Array parameters: one statement per kind, any count.
 */
export async function indexAssetTerms(
  db: PgExecutor,
  a: {
    id: string;
    accountId: string;
    createdAt: string;
    tags: readonly string[];
    metadata: Readonly<Record<string, string>>;
  },
): Promise<void> {
  if (a.tags.length > 0)
    await db.query(
      `INSERT INTO asset_tags (account_id, tag, created_at, asset_id) SELECT $1, t, $4, $2 FROM unnest($3::text[]) AS t
       ON CONFLICT DO NOTHING`,
      [a.accountId, a.id, [...a.tags], a.createdAt],
    );
  const entries = Object.entries(a.metadata);
  if (entries.length > 0)
    await db.query(
      `INSERT INTO asset_metadata (account_id, key, value, created_at, asset_id)
       SELECT $1, k, v, $5, $2 FROM unnest($3::text[], $4::text[]) AS m(k, v) ON CONFLICT DO NOTHING`,
      [a.accountId, a.id, entries.map(([k]) => k), entries.map(([, v]) => v), a.createdAt],
    );
}

export function createPgAssetStore(pool: pg.Pool): AssetStore {
  const one = async (sql: string, params: unknown[]) => {
    const { rows } = await pool.query(sql, params);
    return rows[0] ? toAsset(rows[0]) : null;
  };
  return {
    insert: (asset) => insertAsset(pool, asset),
    get: (accountId, id) => one("SELECT * FROM assets WHERE id = $1 AND account_id = $2", [id, accountId]),
    async getMany(accountId, ids) {
      if (ids.length === 0) return [];
      const { rows } = await pool.query(
        "SELECT * FROM assets WHERE id = ANY($1::text[]) AND account_id = $2",
        [[...ids], accountId],
      );
      return rows.map(toAsset);
    },
    getById: (id) => one("SELECT * FROM assets WHERE id = $1", [id]),
    getByToken: (token) => one("SELECT * FROM assets WHERE token = $1", [token]),
  };
}
