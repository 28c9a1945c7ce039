import { chmodSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import type { ColumnDecoding } from "../sql-rows.ts";
import { migrateAssetLibrary } from "./asset-schema.ts";
import { migrateBalances } from "./balances.ts";
import { migrateIdempotency } from "./idempotency-store.ts";
import { migrateImageUrls } from "./image-url-store.ts";
import { migrateWebhookOutbox } from "./webhook-outbox.ts";

/**
 * Numbered migrations, applied in order inside one transaction each; `user_version` records the last
 * one applied. Append only: never edit a migration that has shipped.
 */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    webhook_secret TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    hash BLOB NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    name TEXT,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
  );
  CREATE INDEX api_keys_account ON api_keys(account_id);
  CREATE TABLE templates (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    draft TEXT NOT NULL,
    published_version INTEGER,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (account_id, key)
  );
  CREATE TABLE template_versions (
    template_id TEXT NOT NULL REFERENCES templates(id),
    version INTEGER NOT NULL,
    document TEXT NOT NULL,
    published_at TEXT NOT NULL,
    PRIMARY KEY (template_id, version)
  );
  CREATE TABLE assets (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    folder TEXT NOT NULL,
    name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    byte_size INTEGER NOT NULL,
    width INTEGER,
    height INTEGER,
    blob_key TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    etag TEXT NOT NULL,
    metadata TEXT NOT NULL,
    tags TEXT NOT NULL,
    render_id TEXT UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE INDEX assets_account_folder ON assets(account_id, folder);
  CREATE TABLE renders (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    template_id TEXT NOT NULL,
    template_key TEXT NOT NULL,
    template_version INTEGER NOT NULL,
    frame TEXT NOT NULL,
    scale REAL NOT NULL,
    format TEXT NOT NULL,
    quality INTEGER,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    slot_values TEXT NOT NULL,
    metadata TEXT NOT NULL,
    tags TEXT NOT NULL,
    webhook_url TEXT,
    status TEXT NOT NULL CHECK (status IN ('queued', 'rendering', 'completed', 'failed')),
    credits_charged INTEGER NOT NULL,
    error_code TEXT,
    error_message TEXT,
    warnings TEXT NOT NULL DEFAULT '[]',
    asset_id TEXT,
    created_at TEXT NOT NULL,
    completed_at TEXT
  );
  -- The renders table is the durable queue: this index is the queue's "pending" view.
  CREATE INDEX renders_pending ON renders(seq) WHERE status IN ('queued', 'rendering');
  CREATE TABLE ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL CHECK (kind IN ('grant', 'charge', 'refund')),
    amount INTEGER NOT NULL,
    render_id TEXT,
    note TEXT,
    created_at TEXT NOT NULL,
    -- One charge and at most one refund per render, whatever the callers do (grants have no render).
    UNIQUE (render_id, kind),
    CHECK ((kind = 'charge' AND amount < 0) OR (kind <> 'charge' AND amount > 0))
  );
  CREATE INDEX ledger_account ON ledger(account_id, id);
  `,
  // Issue 4: batches (which rows became which render, which failed and why) and webhook secret
  // rotation (the previous secret stays valid until previous_webhook_secret_expires_at).
  `
  CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    webhook_url TEXT,
    metadata TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE batch_rows (
    batch_id TEXT NOT NULL REFERENCES batches(id),
    idx INTEGER NOT NULL,
    render_id TEXT,
    error TEXT,
    PRIMARY KEY (batch_id, idx),
    CHECK ((render_id IS NULL) <> (error IS NULL))
  );
  ALTER TABLE accounts ADD COLUMN previous_webhook_secret TEXT;
  ALTER TABLE accounts ADD COLUMN previous_webhook_secret_expires_at TEXT;
  `,
  // Batches are written as they are accepted (crash safety): the record first, as 'accepting', each
  // row as it is decided, then 'accepted'. Batches stored before this were written whole: accepted.
  `
  ALTER TABLE batches ADD COLUMN state TEXT NOT NULL DEFAULT 'accepted' CHECK (state IN ('accepting', 'accepted'));
  CREATE INDEX batches_account_created ON batches(account_id, created_at, id);
  `,
  // A render remembers the Idempotency-Key it was accepted under, so a retry that takes over the key
  // of a request whose process died answers with that render instead of charging a second one.
  `
  ALTER TABLE renders ADD COLUMN idempotency_key TEXT;
  CREATE INDEX renders_idempotency_key ON renders(account_id, idempotency_key, created_at) WHERE idempotency_key IS NOT NULL;
  `,
  // A batch remembers the Idempotency-Key it was begun under, so a retry that takes over the key of a
  // request that died mid-batch completes that batch instead of charging every row again.
  `
  ALTER TABLE batches ADD COLUMN idempotency_key TEXT;
  CREATE INDEX batches_idempotency_key ON batches(account_id, idempotency_key, created_at) WHERE idempotency_key IS NOT NULL;
  `,
  // A PDF render draws several frames, one page each (format 'pdf'), at a density: both null for images.
  `
  ALTER TABLE renders ADD COLUMN frames TEXT;
  ALTER TABLE renders ADD COLUMN dpi REAL;
  `,
];

/**
 * The database holds webhook secrets as they are (signing needs them) and key hashes: readable by
 * its owner only, like signing.key. SQLite gives the -wal and -shm files the database file's mode
 * when it creates them; existing ones are narrowed too. A file owned by someone else is left as is.
 */
function restrictToOwner(file: string): void {
  if (file === ":memory:") return;
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch {}
  }
}

export function openDatabase(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  restrictToOwner(file);
  // WAL lets the CLI write (accounts create, credits grant) while the server runs; busy_timeout makes
  // the other process wait for the write lock instead of failing with SQLITE_BUSY.
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA busy_timeout = 10000");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db);
  // Tables owned by other modules create themselves idempotently (CREATE IF NOT EXISTS).
  transaction(db, () => {
    migrateBalances(db);
    migrateIdempotency(db);
    migrateWebhookOutbox(db);
    migrateAssetLibrary(db);
    migrateImageUrls(db);
  });
  return db;
}

function migrate(db: DatabaseSync): void {
  const current = (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
  for (let i = current; i < MIGRATIONS.length; i++) {
    transaction(db, () => {
      // Re-check under the write lock: another process may have migrated meanwhile.
      const now = (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
      if (now > i) return;
      db.exec(MIGRATIONS[i] as string);
      db.exec(`PRAGMA user_version = ${i + 1}`);
    });
  }
}

/** BEGIN IMMEDIATE takes the write lock up front, so read-then-write (balance checks) cannot race. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

export const json = (value: unknown) => JSON.stringify(value);
export const parse = <T>(text: unknown): T => JSON.parse(String(text)) as T;

/** SQLite hands JSON back as the text we stored and timestamps as the ISO strings we stored. */
export const sqliteColumns: ColumnDecoding = {
  json: parse,
  time: (value) => String(value),
  timeOrNull: (value) => (value as string | null) ?? null,
};
