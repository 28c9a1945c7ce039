import type { DatabaseSync } from "node:sqlite";
import { sql } from "./statements.ts";

/**
 * Index tables of the asset library (issue 5), created idempotently like the other module-owned
 * tables, so this module adds no numbered migration to the shared list.
 *
 * Tags and metadata get one row per (asset, tag) / (asset, key, value), keyed account first and
 * created_at before the asset id: a filter is one index range of exactly the matching assets, already
 * in the newest-first order of every listing, so a page is read without sorting and stops after
 * `limit` rows; and "does asset X have tag T" is a point lookup. The JSON columns of `assets` stay the
 * source of what a record shows. `bench/assets.bench.ts` measures this against 100,000 assets (a
 * first version keyed without created_at sorted every match: 20-70 ms p50 on common filters).
 */
export function migrateAssetLibrary(db: DatabaseSync): void {
  const existed = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'asset_tags'")
    .get();
  db.exec(`
    CREATE TABLE IF NOT EXISTS asset_tags (
      account_id TEXT NOT NULL,
      tag TEXT NOT NULL,
      created_at TEXT NOT NULL,
      asset_id TEXT NOT NULL,
      PRIMARY KEY (account_id, tag, created_at, asset_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS asset_tags_asset ON asset_tags(asset_id);
    CREATE TABLE IF NOT EXISTS asset_metadata (
      account_id TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      created_at TEXT NOT NULL,
      asset_id TEXT NOT NULL,
      PRIMARY KEY (account_id, key, value, created_at, asset_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS asset_metadata_asset ON asset_metadata(asset_id);
    -- Facts about stored bytes: their hash and, for fonts, the face they hold. The hash dedupes
    -- uploads only: two renders of the same values make identical bytes and are two assets.
    CREATE TABLE IF NOT EXISTS asset_files (
      asset_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      font_family TEXT,
      font_weight INTEGER,
      font_style TEXT,
      render_output INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX IF NOT EXISTS asset_files_font ON asset_files(account_id, font_family)
      WHERE font_family IS NOT NULL;
    -- folder and content_type ride along so a newest-first scan filters on the index alone.
    CREATE INDEX IF NOT EXISTS assets_account_created ON assets(account_id, created_at, id, folder, content_type);
    CREATE INDEX IF NOT EXISTS assets_account_folder_created ON assets(account_id, folder, created_at, id);
    -- Deleting an asset asks whether any other record still names its blob.
    CREATE INDEX IF NOT EXISTS assets_blob_key ON assets(blob_key);
  `);
  const hasRenderOutput = db
    .prepare("SELECT 1 FROM pragma_table_info('asset_files') WHERE name = 'render_output'")
    .get();
  if (!hasRenderOutput) {
    // Databases from before render outputs recorded their hash: every row there is an upload.
    db.exec("ALTER TABLE asset_files ADD COLUMN render_output INTEGER NOT NULL DEFAULT 0");
  }
  db.exec(`
    DROP INDEX IF EXISTS asset_files_sha;
    CREATE UNIQUE INDEX IF NOT EXISTS asset_files_upload_sha ON asset_files(account_id, sha256)
      WHERE render_output = 0;
  `);
  if (!existed) {
    // Assets written before these tables existed (render outputs, starter images) become findable.
    db.exec(`
      INSERT OR IGNORE INTO asset_tags (account_id, tag, created_at, asset_id)
        SELECT a.account_id, t.value, a.created_at, a.id FROM assets a, json_each(a.tags) t;
      INSERT OR IGNORE INTO asset_metadata (account_id, key, value, created_at, asset_id)
        SELECT a.account_id, m.key, m.value, a.created_at, a.id FROM assets a, json_each(a.metadata) m;
    `);
  }
}

/** Writes the tag and metadata rows of one asset (inside the caller's transaction). */
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
