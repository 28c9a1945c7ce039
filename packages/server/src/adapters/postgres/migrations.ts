import type pg from "pg";
import { withTransaction } from "./pool.ts";

/**
 * Numbered migrations; append only, never edit one that has shipped. Migration 1 mirrors the SQLite
 * schema (adapters/sqlite/database.ts, idempotency-store.ts, webhook-outbox.ts) table for table, with
 * PostgreSQL types: timestamptz where SQLite keeps ISO text, bigint where it keeps epoch milliseconds,
 * bytea for blobs, and `json` (not jsonb) for documents and values so key order survives the round
 * trip exactly as stored.
 */
export const MIGRATIONS: readonly string[] = [
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
];

// Any constant works; it only has to be the same in every process migrating this database.
const MIGRATION_LOCK = 7_143_711;

/**
 * Applies the migrations not yet recorded in `pictor_migrations`, in one transaction under an advisory
 * lock: processes starting together wait for the first one, then find nothing left to do.
 * Returns the versions applied by this call.
 */
export async function migrate(pool: pg.Pool): Promise<number[]> {
  return withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS pictor_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const { rows } = await client.query<{ version: number | null }>(
      "SELECT max(version) AS version FROM pictor_migrations",
    );
    const current = rows[0]?.version ?? 0;
    const applied: number[] = [];
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      await client.query(MIGRATIONS[version - 1] as string);
      await client.query("INSERT INTO pictor_migrations (version) VALUES ($1)", [version]);
      applied.push(version);
    }
    return applied;
  });
}
