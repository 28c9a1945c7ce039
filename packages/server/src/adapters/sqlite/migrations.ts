import type { DatabaseSync } from "node:sqlite";
import { transaction } from "./database.ts";

/**
 * One migration: SQL run as a script, or a function for a step that must look at what is there first
 * (an upgrade from a shape an earlier build left behind).
 */
export type SqliteMigration = string | ((db: DatabaseSync) => void);

/**
 * The SQLite schema: numbered migrations, applied in order inside one transaction each;
 * `PRAGMA user_version` records the last one applied. This is the only place that creates or alters
 * a table, index or trigger. Append only: never edit a migration that has shipped. A change here
 * needs its twin in adapters/postgres/migrations.ts: the schema drift test
 * (test/contract/migrations.postgres.suite.ts, with the type mapping and the differences allowed on
 * purpose in test/contract/schema/parity.ts) fails until both agree.
 *
 * Migrations 7 to 11 adopt the tables that stores used to create themselves on every open
 * (CREATE ... IF NOT EXISTS beside the numbered list). A database from such a build is at version 6
 * or lower and already holds some of them, in the shape of the build that made them, so these
 * migrations create only what is missing (IF NOT EXISTS) and bring earlier shapes up to date.
 */
export const MIGRATIONS: readonly SqliteMigration[] = [
  // 1: accounts, keys, templates, assets, renders (the durable queue) and the ledger.
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
  // 2: batches (which rows became which render, which failed and why) and webhook secret
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
  // 3: batches are written as they are accepted (crash safety): the record first, as 'accepting', each
  // row as it is decided, then 'accepted'. Batches stored before this were written whole: accepted.
  `
  ALTER TABLE batches ADD COLUMN state TEXT NOT NULL DEFAULT 'accepted' CHECK (state IN ('accepting', 'accepted'));
  CREATE INDEX batches_account_created ON batches(account_id, created_at, id);
  `,
  // 4: a render remembers the Idempotency-Key it was accepted under, so a retry that takes over the key
  // of a request whose process died answers with that render instead of charging a second one.
  `
  ALTER TABLE renders ADD COLUMN idempotency_key TEXT;
  CREATE INDEX renders_idempotency_key ON renders(account_id, idempotency_key, created_at) WHERE idempotency_key IS NOT NULL;
  `,
  // 5: a batch remembers the Idempotency-Key it was begun under, so a retry that takes over the key of a
  // request that died mid-batch completes that batch instead of charging every row again.
  `
  ALTER TABLE batches ADD COLUMN idempotency_key TEXT;
  CREATE INDEX batches_idempotency_key ON batches(account_id, idempotency_key, created_at) WHERE idempotency_key IS NOT NULL;
  `,
  // 6: a PDF render draws several frames, one page each (format 'pdf'), at a density: both null for images.
  `
  ALTER TABLE renders ADD COLUMN frames TEXT;
  ALTER TABLE renders ADD COLUMN dpi REAL;
  `,
  // 7: the balance as a running total kept by the database itself, so reading it does not scan the
  // ledger (summing it took 7% of the API process's CPU once an account had a few thousand renders).
  // The ledger stays the record: a trigger derives the total from every insert, whichever process
  // writes (server or CLI), and the CHECK refuses any entry that would take a balance below zero.
  // The back-fill adds only accounts without a balance row: where the table already existed, the
  // trigger has kept every row it holds, and an account missing from it has no ledger entry since.
  `
  CREATE TABLE IF NOT EXISTS account_balances (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    balance INTEGER NOT NULL CHECK (balance >= 0)
  );
  INSERT OR IGNORE INTO account_balances (account_id, balance)
    SELECT id, COALESCE((SELECT SUM(amount) FROM ledger WHERE ledger.account_id = accounts.id), 0) FROM accounts;
  CREATE TRIGGER IF NOT EXISTS ledger_keeps_balance AFTER INSERT ON ledger BEGIN
    INSERT OR IGNORE INTO account_balances (account_id, balance) VALUES (NEW.account_id, 0);
    UPDATE account_balances SET balance = balance + NEW.amount WHERE account_id = NEW.account_id;
  END;
  CREATE TRIGGER IF NOT EXISTS ledger_no_update BEFORE UPDATE ON ledger BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
  END;
  CREATE TRIGGER IF NOT EXISTS ledger_no_delete BEFORE DELETE ON ledger BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
  END;
  `,
  // 8: Idempotency-Key claims and the responses they replay (times in epoch milliseconds).
  `
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
  `,
  // 9: the webhook outbox: one event per render with a callback, and the log of its delivery attempts.
  `
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
  `,
  // 10: the asset library's index tables (see assetLibraryTables).
  assetLibraryTables,
  // 11: on-demand image URLs: per-account URL-signing keys and the render cache's entries.
  `
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
  `,
  // 12: webhook deliverers' heartbeats (epoch ms), and which deliverer holds an event's claim: a claim
  // whose deliverer has stopped beating is taken over without waiting out its lease.
  `
  CREATE TABLE webhook_deliverers (
    deliverer_id TEXT PRIMARY KEY,
    last_seen INTEGER NOT NULL
  ) STRICT;
  ALTER TABLE webhook_events ADD COLUMN claimed_by TEXT;
  `,
  // 13: the X-Request-Id of the request that created a render, and its callback's (sent as that
  // header), so a support ticket quoting either leads to the API's log line.
  `
  ALTER TABLE renders ADD COLUMN request_id TEXT;
  ALTER TABLE webhook_events ADD COLUMN request_id TEXT;
  `,
  // 14: the W3C trace context of the render a callback belongs to, so its delivery joins the
  // render's trace whichever process sends it, whenever.
  `
  ALTER TABLE webhook_events ADD COLUMN traceparent TEXT;
  `,
  // 15: the PNG encoder effort a render was accepted with ('size'); null is 'speed', what every
  // render before it was encoded with.
  `
  ALTER TABLE renders ADD COLUMN optimize TEXT;
  `,
  // 16: an animated render's frame count, fps and duration (JSON); null for stills and PDFs.
  `
  ALTER TABLE renders ADD COLUMN animation TEXT;
  `,
];

/**
 * Tags and metadata get one row per (asset, tag) / (asset, key, value), keyed account first and
 * created_at before the asset id: a filter is one index range of exactly the matching assets, already
 * in the newest-first order of every listing, so a page is read without sorting and stops after
 * `limit` rows; and "does asset X have tag T" is a point lookup. The JSON columns of `assets` stay the
 * source of what a record shows. `bench/assets.bench.ts` measures this against 100,000 assets (a
 * first version keyed without created_at sorted every match: 20-70 ms p50 on common filters).
 *
 * Earlier builds created these tables on open, in three shapes: tag and metadata rows keyed without
 * created_at, with a three-column assets_account_created; then asset_files without render_output and
 * with a unique asset_files_sha over every row; then today's. Each is brought to today's here. Tag and
 * metadata rows are derived from the assets' JSON, so rows of the first shape are dropped and written
 * again.
 */
function assetLibraryTables(db: DatabaseSync): void {
  const columnsOf = (table: string) =>
    db
      .prepare("SELECT name FROM pragma_table_info(?)")
      .all(table)
      .map((c) => String(c.name));
  for (const table of ["asset_tags", "asset_metadata"]) {
    const columns = columnsOf(table);
    if (columns.length > 0 && !columns.includes("created_at")) db.exec(`DROP TABLE ${table}`);
  }
  const indexTermsAgain = columnsOf("asset_tags").length === 0;
  const assetsByAccount = db
    .prepare("SELECT name FROM pragma_index_info('assets_account_created')")
    .all()
    .map((c) => String(c.name));
  if (assetsByAccount.length > 0 && !assetsByAccount.includes("content_type")) {
    db.exec("DROP INDEX assets_account_created");
  }
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
  if (!columnsOf("asset_files").includes("render_output")) {
    // From before render outputs recorded their hash: every row there is an upload.
    db.exec("ALTER TABLE asset_files ADD COLUMN render_output INTEGER NOT NULL DEFAULT 0");
  }
  db.exec(`
    DROP INDEX IF EXISTS asset_files_sha;
    CREATE UNIQUE INDEX IF NOT EXISTS asset_files_upload_sha ON asset_files(account_id, sha256)
      WHERE render_output = 0;
  `);
  if (indexTermsAgain) {
    // Assets written before these tables existed (render outputs, starter images) become findable.
    db.exec(`
      INSERT OR IGNORE INTO asset_tags (account_id, tag, created_at, asset_id)
        SELECT a.account_id, t.value, a.created_at, a.id FROM assets a, json_each(a.tags) t;
      INSERT OR IGNORE INTO asset_metadata (account_id, key, value, created_at, asset_id)
        SELECT a.account_id, m.key, m.value, a.created_at, a.id FROM assets a, json_each(a.metadata) m;
    `);
  }
}

/** The version this database is at: the number of migrations applied to it. */
export function schemaVersion(db: DatabaseSync): number {
  return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
}

/**
 * Applies the migrations this database has not had yet, each in its own IMMEDIATE transaction, and
 * returns the versions applied by this call. Processes opening the database together wait for one
 * another's write lock, then find nothing left to do. `upTo` stops early (tests of the upgrade path).
 */
export function migrate(db: DatabaseSync, upTo: number = MIGRATIONS.length): number[] {
  const applied: number[] = [];
  for (let version = schemaVersion(db) + 1; version <= Math.min(upTo, MIGRATIONS.length); version++) {
    transaction(db, () => {
      // Re-check under the write lock: another process may have migrated meanwhile.
      if (schemaVersion(db) >= version) return;
      const migration = MIGRATIONS[version - 1] as SqliteMigration;
      if (typeof migration === "string") db.exec(migration);
      else migration(db);
      db.exec(`PRAGMA user_version = ${version}`);
      applied.push(version);
    });
  }
  return applied;
}
