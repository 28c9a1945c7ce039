/**
 * What earlier builds did to a SQLite database besides the numbered migrations: until migrations 7-11
 * took them over, stores created their own tables on every open (CREATE ... IF NOT EXISTS). The SQL
 * below is copied from those builds as they ran it (the commit named with each), so a test can make a
 * data directory as that build left it and open it with this one.
 */

// Unchanged from 01330f3 (the first server build) to fffd71f (the last to create it on open).
const IDEMPOTENCY = `
    CREATE TABLE IF NOT EXISTS idempotency_keys (
      account_id TEXT NOT NULL,
      key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('started', 'completed')),
      created_at INTEGER NOT NULL,
      locked_at INTEGER NOT NULL,
      status INTEGER,
      headers TEXT,
      body BLOB,
      PRIMARY KEY (account_id, key)
    ) STRICT;
    CREATE INDEX IF NOT EXISTS idempotency_keys_created_at ON idempotency_keys (created_at);
`;

// Unchanged from 01330f3 to fffd71f.
const WEBHOOK_OUTBOX = `
    CREATE TABLE IF NOT EXISTS webhook_events (
      event_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      render_id TEXT NOT NULL UNIQUE,
      url TEXT NOT NULL,
      body TEXT NOT NULL,
      signature TEXT,
      created_at INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
      next_attempt_at INTEGER,
      lease_until INTEGER,
      claim_token TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      schedule_attempts INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE INDEX IF NOT EXISTS webhook_events_due ON webhook_events (state, next_attempt_at);
    CREATE TABLE IF NOT EXISTS webhook_attempts (
      event_id TEXT NOT NULL REFERENCES webhook_events (event_id),
      attempt INTEGER NOT NULL,
      at INTEGER NOT NULL,
      status_code INTEGER,
      error TEXT,
      duration_ms INTEGER NOT NULL,
      PRIMARY KEY (event_id, attempt)
    ) STRICT;
`;

// From 3dbc857 to fffd71f (run once: the build skipped it when account_balances existed).
const BALANCES = `
    CREATE TABLE account_balances (
      account_id TEXT PRIMARY KEY REFERENCES accounts(id),
      balance INTEGER NOT NULL CHECK (balance >= 0)
    );
    INSERT INTO account_balances (account_id, balance)
      SELECT id, COALESCE((SELECT SUM(amount) FROM ledger WHERE ledger.account_id = accounts.id), 0) FROM accounts;
    CREATE TRIGGER ledger_keeps_balance AFTER INSERT ON ledger BEGIN
      INSERT OR IGNORE INTO account_balances (account_id, balance) VALUES (NEW.account_id, 0);
      UPDATE account_balances SET balance = balance + NEW.amount WHERE account_id = NEW.account_id;
    END;
    CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN
      SELECT RAISE(ABORT, 'the ledger is append-only');
    END;
    CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN
      SELECT RAISE(ABORT, 'the ledger is append-only');
    END;
`;

// 8a851c0: the asset library as it first shipped, tag and metadata rows keyed without created_at.
const ASSET_LIBRARY_FIRST = `
    CREATE TABLE IF NOT EXISTS asset_tags (
      account_id TEXT NOT NULL,
      tag TEXT NOT NULL,
      asset_id TEXT NOT NULL,
      PRIMARY KEY (account_id, tag, asset_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS asset_tags_asset ON asset_tags(asset_id);
    CREATE TABLE IF NOT EXISTS asset_metadata (
      account_id TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      asset_id TEXT NOT NULL,
      PRIMARY KEY (account_id, key, value, asset_id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS asset_metadata_asset ON asset_metadata(asset_id);
    -- Facts about uploaded bytes: the hash that dedupes them and, for fonts, the face they hold.
    CREATE TABLE IF NOT EXISTS asset_files (
      asset_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      font_family TEXT,
      font_weight INTEGER,
      font_style TEXT
    );
    CREATE UNIQUE INDEX IF NOT EXISTS asset_files_sha ON asset_files(account_id, sha256);
    CREATE INDEX IF NOT EXISTS asset_files_font ON asset_files(account_id, font_family)
      WHERE font_family IS NOT NULL;
    CREATE INDEX IF NOT EXISTS assets_account_created ON assets(account_id, created_at, id);
    INSERT OR IGNORE INTO asset_tags (account_id, tag, asset_id)
      SELECT a.account_id, t.value, a.id FROM assets a, json_each(a.tags) t;
    INSERT OR IGNORE INTO asset_metadata (account_id, key, value, asset_id)
      SELECT a.account_id, m.key, m.value, a.id FROM assets a, json_each(a.metadata) m;
`;

// 807ad49: tag and metadata rows keyed with created_at; asset_files still without render_output.
const ASSET_LIBRARY_KEYED_BY_TIME = `
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
    -- Facts about uploaded bytes: the hash that dedupes them and, for fonts, the face they hold.
    CREATE TABLE IF NOT EXISTS asset_files (
      asset_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      font_family TEXT,
      font_weight INTEGER,
      font_style TEXT
    );
    CREATE UNIQUE INDEX IF NOT EXISTS asset_files_sha ON asset_files(account_id, sha256);
    CREATE INDEX IF NOT EXISTS asset_files_font ON asset_files(account_id, font_family)
      WHERE font_family IS NOT NULL;
    -- folder and content_type ride along so a newest-first scan filters on the index alone.
    CREATE INDEX IF NOT EXISTS assets_account_created ON assets(account_id, created_at, id, folder, content_type);
    CREATE INDEX IF NOT EXISTS assets_account_folder_created ON assets(account_id, folder, created_at, id);
    INSERT OR IGNORE INTO asset_tags (account_id, tag, created_at, asset_id)
      SELECT a.account_id, t.value, a.created_at, a.id FROM assets a, json_each(a.tags) t;
    INSERT OR IGNORE INTO asset_metadata (account_id, key, value, created_at, asset_id)
      SELECT a.account_id, m.key, m.value, a.created_at, a.id FROM assets a, json_each(a.metadata) m;
`;

// 8ccc534 to fffd71f: render outputs hashed too (render_output), uploads alone dedupe; assets_blob_key.
const ASSET_LIBRARY_LAST = `
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
    DROP INDEX IF EXISTS asset_files_sha;
    CREATE UNIQUE INDEX IF NOT EXISTS asset_files_upload_sha ON asset_files(account_id, sha256)
      WHERE render_output = 0;
    INSERT OR IGNORE INTO asset_tags (account_id, tag, created_at, asset_id)
      SELECT a.account_id, t.value, a.created_at, a.id FROM assets a, json_each(a.tags) t;
    INSERT OR IGNORE INTO asset_metadata (account_id, key, value, created_at, asset_id)
      SELECT a.account_id, m.key, m.value, a.created_at, a.id FROM assets a, json_each(a.metadata) m;
`;

// 57b6a71 to fffd71f: on-demand image URLs.
const IMAGE_URLS = `
    CREATE TABLE IF NOT EXISTS url_signing_keys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT,
      secret TEXT NOT NULL,
      previous_secret TEXT,
      previous_expires_at TEXT,
      created_at TEXT NOT NULL,
      rotated_at TEXT
    );
    CREATE INDEX IF NOT EXISTS url_signing_keys_account ON url_signing_keys(account_id, created_at);
    CREATE TABLE IF NOT EXISTS image_cache (
      account_id TEXT NOT NULL,
      cache_key TEXT NOT NULL,
      asset_id TEXT NOT NULL,
      template_id TEXT NOT NULL,
      template_version INTEGER NOT NULL,
      byte_size INTEGER NOT NULL,
      last_used_at INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (account_id, cache_key)
    );
    CREATE INDEX IF NOT EXISTS image_cache_lru ON image_cache(last_used_at);
`;

export interface EarlierBuild {
  /** The commit, and what its data directory looks like. */
  build: string;
  /** PRAGMA user_version that build left: how many of today's numbered migrations it had. */
  version: number;
  /** What it ran on every open after the numbered migrations, in its order. */
  onOpen: string[];
}

export const EARLIER_BUILDS: readonly EarlierBuild[] = [
  {
    build: "01330f3, the first server build: idempotency keys and the webhook outbox",
    version: 1,
    onOpen: [IDEMPOTENCY, WEBHOOK_OUTBOX],
  },
  {
    build: "8a851c0, the asset library as first shipped (tag rows keyed without created_at)",
    version: 2,
    onOpen: [BALANCES, IDEMPOTENCY, WEBHOOK_OUTBOX, ASSET_LIBRARY_FIRST],
  },
  {
    build: "807ad49, tag rows keyed with created_at, asset_files without render_output",
    version: 2,
    onOpen: [BALANCES, IDEMPOTENCY, WEBHOOK_OUTBOX, ASSET_LIBRARY_KEYED_BY_TIME],
  },
  {
    build: "fffd71f, the last build whose stores made their own tables (image URLs included)",
    version: 6,
    onOpen: [BALANCES, IDEMPOTENCY, WEBHOOK_OUTBOX, ASSET_LIBRARY_LAST, IMAGE_URLS],
  },
];
