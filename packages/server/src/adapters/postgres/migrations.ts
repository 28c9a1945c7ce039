import type pg from "pg";

/**
 * Numbered migrations; append only, never change what one that has shipped leaves (7, 13 and 14 were
 * turned into concurrent index steps: the same indexes, built without blocking writes). The schema mirrors SQLite's
 * (adapters/sqlite/migrations.ts) table for table, with PostgreSQL types: timestamptz where SQLite
 * keeps ISO text, bigint where it keeps epoch milliseconds, bytea for blobs, and `json` (not jsonb) for
 * documents and values so key order survives the round trip exactly as stored. A change to one
 * schema needs its twin in the other: the schema drift test (test/contract/migrations.postgres.suite.ts,
 * with the type mapping and the differences allowed on purpose in test/contract/schema/parity.ts)
 * fails until both agree.
 *
 * A migration is SQL run in one transaction with its version's record, or index steps that PostgreSQL
 * can only run outside a transaction (`CREATE`/`DROP INDEX CONCURRENTLY`: writes to the table go on
 * while the index is built). Each step is one statement and can be run again: a build interrupted
 * half way leaves an invalid index, which the next run drops and builds again.
 */
export type Migration = string | { readonly concurrently: readonly IndexStep[] };

export type IndexStep =
  | { readonly createIndex: string; readonly sql: string }
  | { readonly dropIndex: string };

export const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE accounts (
    id text PRIMARY KEY,
    name text NOT NULL,
    webhook_secret text NOT NULL,
    created_at timestamptz NOT NULL
  );
  CREATE TABLE api_keys (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    hash bytea NOT NULL UNIQUE,
    prefix text NOT NULL,
    name text,
    created_at timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at timestamptz
  );
  CREATE INDEX api_keys_account ON api_keys(account_id);
  CREATE TABLE templates (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    key text NOT NULL,
    name text NOT NULL,
    draft json NOT NULL,
    published_version integer,
    archived_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    UNIQUE (account_id, key)
  );
  CREATE TABLE template_versions (
    template_id text NOT NULL REFERENCES templates(id),
    version integer NOT NULL,
    document json NOT NULL,
    published_at timestamptz NOT NULL,
    PRIMARY KEY (template_id, version)
  );
  CREATE TABLE assets (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    folder text NOT NULL,
    name text NOT NULL,
    content_type text NOT NULL,
    byte_size bigint NOT NULL,
    width integer,
    height integer,
    blob_key text NOT NULL,
    token text NOT NULL UNIQUE,
    etag text NOT NULL,
    metadata json NOT NULL,
    tags json NOT NULL,
    render_id text UNIQUE,
    created_at timestamptz NOT NULL
  );
  CREATE INDEX assets_account_folder ON assets(account_id, folder);
  CREATE TABLE renders (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    account_id text NOT NULL REFERENCES accounts(id),
    template_id text NOT NULL,
    template_key text NOT NULL,
    template_version integer NOT NULL,
    frame text NOT NULL,
    scale double precision NOT NULL,
    format text NOT NULL,
    quality integer,
    width integer NOT NULL,
    height integer NOT NULL,
    slot_values json NOT NULL,
    metadata json NOT NULL,
    tags json NOT NULL,
    webhook_url text,
    status text NOT NULL CHECK (status IN ('queued', 'rendering', 'completed', 'failed')),
    credits_charged integer NOT NULL,
    error_code text,
    error_message text,
    warnings json NOT NULL DEFAULT '[]',
    asset_id text,
    created_at timestamptz NOT NULL,
    completed_at timestamptz
  );
  CREATE INDEX renders_pending ON renders(seq) WHERE status IN ('queued', 'rendering');
  CREATE INDEX renders_account ON renders(account_id);
  CREATE TABLE ledger (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    kind text NOT NULL CHECK (kind IN ('grant', 'charge', 'refund')),
    amount integer NOT NULL,
    render_id text,
    note text,
    created_at timestamptz NOT NULL,
    -- One charge and at most one refund per render, whatever the callers do. NULLs are distinct in
    -- PostgreSQL as in SQLite, so grants (no render) never collide.
    UNIQUE (render_id, kind),
    CHECK ((kind = 'charge' AND amount < 0) OR (kind <> 'charge' AND amount > 0))
  );
  CREATE INDEX ledger_account ON ledger(account_id, id);
  CREATE TABLE idempotency_keys (
    account_id text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    state text NOT NULL CHECK (state IN ('started', 'completed')),
    created_at bigint NOT NULL,
    locked_at bigint NOT NULL,
    status integer,
    headers text,
    body bytea,
    PRIMARY KEY (account_id, key)
  );
  CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
  CREATE TABLE webhook_events (
    event_id text PRIMARY KEY,
    account_id text NOT NULL,
    render_id text NOT NULL UNIQUE,
    url text NOT NULL,
    body text NOT NULL,
    signature text,
    created_at bigint NOT NULL,
    state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    next_attempt_at bigint,
    lease_until bigint,
    claim_token text,
    attempts integer NOT NULL DEFAULT 0,
    schedule_attempts integer NOT NULL DEFAULT 0
  );
  CREATE INDEX webhook_events_due ON webhook_events (state, next_attempt_at);
  CREATE TABLE webhook_attempts (
    event_id text NOT NULL REFERENCES webhook_events (event_id),
    attempt integer NOT NULL,
    at bigint NOT NULL,
    status_code integer,
    error text,
    duration_ms integer NOT NULL,
    PRIMARY KEY (event_id, attempt)
  );
  `,
  // 2, mirrors SQLite migration 2: batches, and webhook secret rotation (the previous secret
  // stays valid until previous_webhook_secret_expires_at).
  `
  CREATE TABLE batches (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    webhook_url text,
    metadata json NOT NULL,
    row_count integer NOT NULL,
    created_at timestamptz NOT NULL
  );
  CREATE TABLE batch_rows (
    batch_id text NOT NULL REFERENCES batches(id),
    idx integer NOT NULL,
    render_id text,
    error json,
    PRIMARY KEY (batch_id, idx),
    CHECK ((render_id IS NULL) <> (error IS NULL))
  );
  ALTER TABLE accounts ADD COLUMN previous_webhook_secret text;
  ALTER TABLE accounts ADD COLUMN previous_webhook_secret_expires_at timestamptz;
  `,
  // 3, mirrors SQLite's balances.ts: the balance as a running total kept by a trigger on every ledger
  // insert, whichever process writes, so reading it never scans the ledger; the CHECK refuses an entry
  // that would take a balance below zero. The ledger is append-only, enforced here too.
  `
  CREATE TABLE account_balances (
    account_id text PRIMARY KEY REFERENCES accounts(id),
    balance bigint NOT NULL CHECK (balance >= 0)
  );
  INSERT INTO account_balances (account_id, balance)
    SELECT id, COALESCE((SELECT SUM(amount) FROM ledger WHERE ledger.account_id = accounts.id), 0) FROM accounts;
  CREATE FUNCTION ledger_keeps_balance() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- Two statements, as in SQLite: an upsert would test the CHECK on the proposed row (a negative
    -- charge) before noticing the conflict.
    INSERT INTO account_balances (account_id, balance) VALUES (NEW.account_id, 0) ON CONFLICT (account_id) DO NOTHING;
    UPDATE account_balances SET balance = balance + NEW.amount WHERE account_id = NEW.account_id;
    RETURN NEW;
  END $$;
  CREATE TRIGGER ledger_keeps_balance AFTER INSERT ON ledger FOR EACH ROW EXECUTE FUNCTION ledger_keeps_balance();
  CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    RAISE EXCEPTION 'the ledger is append-only';
  END $$;
  CREATE TRIGGER ledger_no_update_or_delete BEFORE UPDATE OR DELETE ON ledger
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
  `,
  // 4, mirrors SQLite's asset library: tag and metadata index rows with the account first in
  // the key, so a filter is one index range of exactly the matching assets; file facts (the hash that
  // dedupes uploads, the face a font holds). Existing assets are indexed once.
  `
  CREATE TABLE asset_tags (
    account_id text NOT NULL,
    tag text NOT NULL,
    asset_id text NOT NULL,
    PRIMARY KEY (account_id, tag, asset_id)
  );
  CREATE INDEX asset_tags_asset ON asset_tags(asset_id);
  CREATE TABLE asset_metadata (
    account_id text NOT NULL,
    key text NOT NULL,
    value text NOT NULL,
    asset_id text NOT NULL,
    PRIMARY KEY (account_id, key, value, asset_id)
  );
  CREATE INDEX asset_metadata_asset ON asset_metadata(asset_id);
  CREATE TABLE asset_files (
    asset_id text PRIMARY KEY,
    account_id text NOT NULL,
    sha256 text NOT NULL,
    font_family text,
    font_weight integer,
    font_style text
  );
  CREATE UNIQUE INDEX asset_files_sha ON asset_files(account_id, sha256);
  CREATE INDEX asset_files_font ON asset_files(account_id, font_family) WHERE font_family IS NOT NULL;
  CREATE INDEX assets_account_created ON assets(account_id, created_at, id);
  INSERT INTO asset_tags (account_id, tag, asset_id)
    SELECT a.account_id, t.value, a.id FROM assets a, json_array_elements_text(a.tags) t ON CONFLICT DO NOTHING;
  INSERT INTO asset_metadata (account_id, key, value, asset_id)
    SELECT a.account_id, m.key, m.value, a.id FROM assets a, json_each_text(a.metadata) m ON CONFLICT DO NOTHING;
  `,
  // 5, follows SQLite's asset-schema.ts: tag and metadata rows keyed with created_at before the asset
  // id, so a filter's index range is already in the newest-first order of every listing; folder and
  // content_type ride along in the assets index.
  `
  ALTER TABLE asset_tags ADD COLUMN created_at timestamptz;
  UPDATE asset_tags t SET created_at = a.created_at FROM assets a WHERE a.id = t.asset_id;
  DELETE FROM asset_tags WHERE created_at IS NULL;
  ALTER TABLE asset_tags ALTER COLUMN created_at SET NOT NULL;
  ALTER TABLE asset_tags DROP CONSTRAINT asset_tags_pkey;
  ALTER TABLE asset_tags ADD PRIMARY KEY (account_id, tag, created_at, asset_id);
  ALTER TABLE asset_metadata ADD COLUMN created_at timestamptz;
  UPDATE asset_metadata m SET created_at = a.created_at FROM assets a WHERE a.id = m.asset_id;
  DELETE FROM asset_metadata WHERE created_at IS NULL;
  ALTER TABLE asset_metadata ALTER COLUMN created_at SET NOT NULL;
  ALTER TABLE asset_metadata DROP CONSTRAINT asset_metadata_pkey;
  ALTER TABLE asset_metadata ADD PRIMARY KEY (account_id, key, value, created_at, asset_id);
  DROP INDEX assets_account_created;
  CREATE INDEX assets_account_created ON assets(account_id, created_at, id, folder, content_type);
  CREATE INDEX assets_account_folder_created ON assets(account_id, folder, created_at, id);
  `,
  // 6, follows SQLite's asset-schema.ts: render outputs record their hash too, but only uploads dedupe
  // by it (two renders of the same values are two assets with identical bytes).
  `
  ALTER TABLE asset_files ADD COLUMN render_output boolean NOT NULL DEFAULT false;
  DROP INDEX asset_files_sha;
  CREATE UNIQUE INDEX asset_files_upload_sha ON asset_files(account_id, sha256) WHERE NOT render_output;
  `,
  // 7, follows SQLite's asset-schema.ts: deleting an asset asks whether any other record still names its blob.
  {
    concurrently: [
      {
        createIndex: "assets_blob_key",
        sql: "CREATE INDEX CONCURRENTLY assets_blob_key ON assets(blob_key)",
      },
    ],
  },
  // 8, mirrors SQLite migration 3: batches are written as they are accepted ('accepting', then each
  // row as it is decided, then 'accepted'); batches stored before were written whole.
  `
  ALTER TABLE batches ADD COLUMN state text NOT NULL DEFAULT 'accepted' CHECK (state IN ('accepting', 'accepted'));
  CREATE INDEX batches_account_created ON batches(account_id, created_at, id);
  `,
  // 9, mirrors SQLite migration 4: a render remembers the Idempotency-Key it was accepted under.
  `
  ALTER TABLE renders ADD COLUMN idempotency_key text;
  CREATE INDEX renders_idempotency_key ON renders(account_id, idempotency_key, created_at) WHERE idempotency_key IS NOT NULL;
  `,
  // 10, mirrors SQLite migration 5: a batch remembers the Idempotency-Key it was begun under.
  `
  ALTER TABLE batches ADD COLUMN idempotency_key text;
  CREATE INDEX batches_idempotency_key ON batches(account_id, idempotency_key, created_at) WHERE idempotency_key IS NOT NULL;
  `,
  // 11, mirrors SQLite migration 6: a PDF render's pages (frames, in order) and density; null for images.
  `
  ALTER TABLE renders ADD COLUMN frames json;
  ALTER TABLE renders ADD COLUMN dpi double precision;
  `,
  // URL-signing keys of on-demand image URLs and the render cache's entries (as SQLite's
  // adapters/sqlite/image-url-store.ts).
  `
  CREATE TABLE url_signing_keys (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    name text,
    secret text NOT NULL,
    previous_secret text,
    previous_expires_at timestamptz,
    created_at timestamptz NOT NULL,
    rotated_at timestamptz
  );
  CREATE INDEX url_signing_keys_account ON url_signing_keys(account_id, created_at);
  CREATE TABLE image_cache (
    account_id text NOT NULL,
    cache_key text NOT NULL,
    asset_id text NOT NULL,
    template_id text NOT NULL,
    template_version integer NOT NULL,
    byte_size bigint NOT NULL,
    last_used_at bigint NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (account_id, cache_key)
  );
  CREATE INDEX image_cache_lru ON image_cache(last_used_at);
  `,
  // An account's queued renders, counted at each acceptance for the job's fairness priority
  // (render-jobs.ts fairPriority) without reading the account's finished history.
  {
    concurrently: [
      {
        createIndex: "renders_account_queued",
        sql: "CREATE INDEX CONCURRENTLY renders_account_queued ON renders(account_id) WHERE status = 'queued'",
      },
    ],
  },
  // 14: renders_account (migration 1) serves no query: the idempotency lookup has its own index, the
  // count of queued renders renders_account_queued, and accounts are never deleted (the foreign key
  // never looks renders up by account). SQLite never had it; each render insert no longer pays for it.
  { concurrently: [{ dropIndex: "renders_account" }] },
  // 15, mirrors SQLite migration 12: webhook deliverers' heartbeats (epoch ms), and which deliverer
  // holds an event's claim, taken over once that deliverer stops beating.
  `
  CREATE TABLE webhook_deliverers (
    deliverer_id text PRIMARY KEY,
    last_seen bigint NOT NULL
  );
  ALTER TABLE webhook_events ADD COLUMN claimed_by text;
  `,
  // 16, mirrors SQLite migration 13: the X-Request-Id of the request that created a render, and its
  // callback's (sent as that header).
  `
  ALTER TABLE renders ADD COLUMN request_id text;
  ALTER TABLE webhook_events ADD COLUMN request_id text;
  `,
  // 17, mirrors SQLite migration 14: the W3C trace context of the render a callback belongs to, so
  // its delivery joins the render's trace whichever process sends it, whenever.
  `
  ALTER TABLE webhook_events ADD COLUMN traceparent text;
  `,
  // 18, mirrors SQLite migration 15: the PNG encoder effort a render was accepted with ('size');
  // null is 'speed'.
  `
  ALTER TABLE renders ADD COLUMN optimize text;
  `,
  // 19, mirrors SQLite migration 16: an animated render's frame count, fps and duration; null for stills.
  `
  ALTER TABLE renders ADD COLUMN animation json;
  `,
];

// Any constant works; it only has to be the same in every process migrating this database.
const MIGRATION_LOCK = 7_143_711;

/**
 * Applies the migrations not yet recorded in `pictor_migrations`, each in its own transaction with its
 * record (index steps outside one), under a session advisory lock: processes starting together wait
 * for the first one, then find nothing left to do.
 * Returns the versions applied by this call. `upTo` stops early (tests of the upgrade path).
 */
export async function migrate(pool: pg.Pool, upTo: number = MIGRATIONS.length): Promise<number[]> {
  const client = await pool.connect();
  // A connection lost mid-migration fails the query in flight; without a listener it would throw.
  const onLost = () => {};
  client.on("error", onLost);
  let locked = false;
  try {
    // Polled, not waited for: a session blocked in pg_advisory_lock is a transaction in progress, which
    // a concurrent index build in the session holding the lock would wait for (a deadlock).
    while (!locked) {
      const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
        MIGRATION_LOCK,
      ]);
      locked = rows[0]?.locked === true;
      if (!locked) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await client.query(
      "CREATE TABLE IF NOT EXISTS pictor_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const { rows } = await client.query<{ version: number | null }>(
      "SELECT max(version) AS version FROM pictor_migrations",
    );
    const current = rows[0]?.version ?? 0;
    const applied: number[] = [];
    for (let version = current + 1; version <= Math.min(upTo, MIGRATIONS.length); version++) {
      const migration = MIGRATIONS[version - 1] as Migration;
      const record = () => client.query("INSERT INTO pictor_migrations (version) VALUES ($1)", [version]);
      if (typeof migration === "string") {
        await client.query("BEGIN");
        try {
          await client.query(migration);
          await record();
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {});
          throw error;
        }
      } else {
        for (const step of migration.concurrently) await runIndexStep(client, step);
        await record();
      }
      applied.push(version);
    }
    return applied;
  } finally {
    if (locked) await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    client.removeListener("error", onLost);
    client.release();
  }
}

async function runIndexStep(client: pg.PoolClient, step: IndexStep): Promise<void> {
  if ("dropIndex" in step) {
    await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${step.dropIndex}`);
    return;
  }
  const { rows } = await client.query<{ valid: boolean }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [step.createIndex],
  );
  if (rows[0]?.valid) return;
  // Left invalid by a build that was interrupted: it would be kept up on writes but never used.
  if (rows[0]) await client.query(`DROP INDEX CONCURRENTLY ${step.createIndex}`);
  await client.query(step.sql);
}
