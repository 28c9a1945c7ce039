import type pg from "pg";
import type {
  Account,
  AccountStore,
  ApiKeyRecord,
  NewAccount,
  WebhookSecretStore,
} from "../../ports/account-store.ts";
import { apiKeyFromRow } from "../sql-rows.ts";
import { iso, isoOrNull, type PgExecutor, postgresColumns, withTransaction } from "./pool.ts";

type Row = Record<string, unknown>;

const toKey = (r: Row): ApiKeyRecord => apiKeyFromRow(r, postgresColumns);

const INSERT_KEY =
  "INSERT INTO api_keys (id, account_id, hash, prefix, name, created_at) VALUES ($1, $2, $3, $4, $5, $6)";

/**
 * Held while createIfNone checks and inserts. The same key the composition roots' first-start lock
 * used (`pg_advisory_lock(7140001)`), so during a rolling upgrade a process of either build waits for
 * the other instead of both creating a trial account.
 */
const FIRST_ACCOUNT_LOCK = 7_140_001;

async function insertAccount(client: PgExecutor, { account, webhookSecret, key, grant }: NewAccount) {
  await client.query("INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES ($1, $2, $3, $4)", [
    account.id,
    account.name,
    webhookSecret,
    account.createdAt,
  ]);
  await client.query(INSERT_KEY, [
    key.id,
    account.id,
    Buffer.from(key.hash),
    key.prefix,
    key.name,
    account.createdAt,
  ]);
  if (grant > 0)
    await client.query(
      "INSERT INTO ledger (account_id, kind, amount, note, created_at) VALUES ($1, 'grant', $2, 'starting credits', $3)",
      [account.id, grant, account.createdAt],
    );
}

const toAccount = (r: Row): Account => ({
  id: String(r.id),
  name: String(r.name),
  createdAt: iso(r.created_at),
});

export function createPgAccountStore(pool: pg.Pool): AccountStore {
  return {
    async create(input) {
      await withTransaction(pool, (client) => insertAccount(client, input));
    },
    async createIfNone(input) {
      return withTransaction(pool, async (client) => {
        // Released at COMMIT. Under READ COMMITTED the check below runs after the lock is ours, so it
        // sees the account a process that held the lock before committed.
        await client.query("SELECT pg_advisory_xact_lock($1)", [FIRST_ACCOUNT_LOCK]);
        const { rows } = await client.query("SELECT EXISTS (SELECT 1 FROM accounts) AS any");
        if (rows[0]?.any) return false;
        await insertAccount(client, input);
        return true;
      });
    },
    async get(accountId) {
      const { rows } = await pool.query("SELECT id, name, created_at FROM accounts WHERE id = $1", [
        accountId,
      ]);
      return rows[0] ? toAccount(rows[0]) : null;
    },
    async list({ limit, after }) {
      // As listKeys: the cursor is the previous page's last account; an unknown id gives no rows.
      const { rows } = await pool.query(
        `SELECT id, name, created_at FROM accounts WHERE $1::text IS NULL OR
           (created_at, id COLLATE "C") > (SELECT created_at, id COLLATE "C" FROM accounts WHERE id = $1)
         ORDER BY created_at, id COLLATE "C" LIMIT $2`,
        [after, limit],
      );
      return rows.map(toAccount);
    },
    async findKeyByHash(hash) {
      const { rows } = await pool.query("SELECT * FROM api_keys WHERE hash = $1 AND revoked_at IS NULL", [
        Buffer.from(hash),
      ]);
      const r = rows[0];
      return r ? { key: toKey(r), hash: new Uint8Array(r.hash as Buffer) } : null;
    },
    async touchKey(keyId, at) {
      await pool.query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2", [at, keyId]);
    },
    async addKey(accountId, key) {
      await pool.query(INSERT_KEY, [
        key.id,
        accountId,
        Buffer.from(key.hash),
        key.prefix,
        key.name,
        key.createdAt,
      ]);
    },
    async listKeys(accountId, { limit, after }) {
      // As in SQLite: the cursor is the previous page's last key; another account's id gives no rows.
      const { rows } = await pool.query(
        `SELECT * FROM api_keys WHERE account_id = $1 AND ($2::text IS NULL OR
           (created_at, id COLLATE "C") > (SELECT created_at, id COLLATE "C" FROM api_keys WHERE id = $2 AND account_id = $1))
         ORDER BY created_at, id COLLATE "C" LIMIT $3`,
        [accountId, after, limit],
      );
      return rows.map(toKey);
    },
    async activeKeyCount(accountId) {
      const { rows } = await pool.query(
        "SELECT COUNT(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL",
        [accountId],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async revokeKey(accountId, keyId, at) {
      const res = await pool.query(
        "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL",
        [at, keyId, accountId],
      );
      return res.rowCount === 1;
    },
    async webhookSecret(accountId) {
      const { rows } = await pool.query("SELECT webhook_secret FROM accounts WHERE id = $1", [accountId]);
      return rows[0] ? String(rows[0].webhook_secret) : null;
    },
  };
}

/** Webhook secret rotation, on the accounts table like the SQLite store. */
export function createPgWebhookSecretStore(pool: pg.Pool): WebhookSecretStore {
  return {
    async webhookSecrets(accountId, now) {
      const { rows } = await pool.query(
        "SELECT webhook_secret, previous_webhook_secret, previous_webhook_secret_expires_at FROM accounts WHERE id = $1",
        [accountId],
      );
      const r = rows[0];
      if (!r) return null;
      const expiresAt = isoOrNull(r.previous_webhook_secret_expires_at);
      const previous =
        r.previous_webhook_secret !== null && expiresAt !== null && expiresAt > now
          ? { secret: String(r.previous_webhook_secret), expiresAt }
          : null;
      return { secret: String(r.webhook_secret), previous };
    },
    async rotateWebhookSecret(accountId, secret, previousExpiresAt) {
      // One statement: the old secret moves to previous atomically, even if two rotations race.
      const res = await pool.query(
        `UPDATE accounts SET previous_webhook_secret = webhook_secret,
           previous_webhook_secret_expires_at = $1, webhook_secret = $2 WHERE id = $3`,
        [previousExpiresAt, secret, accountId],
      );
      return res.rowCount === 1;
    },
  };
}
