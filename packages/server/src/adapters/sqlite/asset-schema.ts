import type { DatabaseSync } from "node:sqlite";
import { sql } from "./statements.ts";

/**
 * Writes the tag and metadata rows of one asset (inside the caller's transaction): the asset library's
 * index tables, made by migration 10 in migrations.ts, which explains their keys.
 */
export function indexAssetTerms(
  db: DatabaseSync,
  a: {
    id: string;
    accountId: string;
    createdAt: string;
    tags: readonly string[];
    metadata: Readonly<Record<string, string>>;
  },
): void {
  const tag = sql(
    db,
    "INSERT OR IGNORE INTO asset_tags (account_id, tag, created_at, asset_id) VALUES (?, ?, ?, ?)",
  );
  for (const t of a.tags) tag.run(a.accountId, t, a.createdAt, a.id);
  const meta = sql(
    db,
    "INSERT OR IGNORE INTO asset_metadata (account_id, key, value, created_at, asset_id) VALUES (?, ?, ?, ?, ?)",
  );
  for (const [k, v] of Object.entries(a.metadata)) meta.run(a.accountId, k, v, a.createdAt, a.id);
}

export function unindexAssetTerms(db: DatabaseSync, assetId: string): void {
  sql(db, "DELETE FROM asset_tags WHERE asset_id = ?").run(assetId);
  sql(db, "DELETE FROM asset_metadata WHERE asset_id = ?").run(assetId);
}
