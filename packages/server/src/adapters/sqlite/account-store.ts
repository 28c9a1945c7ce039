import type { DatabaseSync } from "node:sqlite";
import type {
  Account,
  AccountStore,
  ApiKeyRecord,
  NewAccount,
  WebhookSecretStore,
} from "../../ports/account-store.ts";
import { apiKeyFromRow } from "../sql-rows.ts";
import { sqliteColumns, transaction } from "./database.ts";
import { sql } from "./statements.ts";

type Row = Record<string, unknown>;

const toKey = (r: Row): ApiKeyRecord => apiKeyFromRow(r, sqliteColumns);
const toAccount = (r: Row): Account => ({
  id: String(r.id),
  name: String(r.name),
  createdAt: String(r.created_at),
});

export function createSqliteAccountStore(db: DatabaseSync): AccountStore {
  const insertAccount = sql(
    db,
    "INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (?, ?, ?, ?)",
  );
  const insertKey = sql(
    db,
    "INSERT INTO api_keys (id, account_id, hash, prefix, name, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const insertGrant = sql(
    db,
    "INSERT INTO ledger (account_id, kind, amount, note, created_at) VALUES (?, 'grant', ?, ?, ?)",
  );
  const byHash = sql(db, "SELECT * FROM api_keys WHERE hash = ? AND revoked_at IS NULL");
  const insertAll = ({ account, webhookSecret, key, grant }: NewAccount) => {
    insertAccount.run(account.id, account.name, webhookSecret, account.createdAt);
    insertKey.run(key.id, account.id, key.hash, key.prefix, key.name, account.createdAt);
    if (grant > 0) insertGrant.run(account.id, grant, "starting credits", account.createdAt);
  };
  return {
    async create(input) {
      transaction(db, () => insertAll(input));
    },
    async createIfNone(input) {
      // BEGIN IMMEDIATE holds the write lock from the check to the insert: another process that
      // checks meanwhile waits (busy_timeout) and then finds this account.
      return transaction(db, () => {
        if (sql(db, "SELECT 1 FROM accounts LIMIT 1").get()) return false;
        insertAll(input);
        return true;
      });
    },
    async get(accountId) {
      const r = sql(db, "SELECT id, name, created_at FROM accounts WHERE id = ?").get(accountId);
      return r ? toAccount(r) : null;
    },
    async list({ limit, after }) {
      // As listKeys: the cursor is the previous page's last account; an unknown id gives no rows.
      const rows = after
        ? sql(
            db,
            `SELECT id, name, created_at FROM accounts WHERE (created_at, id) >
               (SELECT created_at, id FROM accounts WHERE id = ?)
             ORDER BY created_at, id LIMIT ?`,
          ).all(after, limit)
        : sql(db, "SELECT id, name, created_at FROM accounts ORDER BY created_at, id LIMIT ?").all(limit);
      return rows.map(toAccount);
    },
    async findKeyByHash(hash) {
      const r = byHash.get(hash);
      return r ? { key: toKey(r), hash: new Uint8Array(r.hash as Uint8Array) } : null;
    },
    async touchKey(keyId, at) {
      sql(db, "UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(at, keyId);
    },
    async addKey(accountId, key) {
      insertKey.run(key.id, accountId, key.hash, key.prefix, key.name, key.createdAt);
    },
    async listKeys(accountId, { limit, after }) {
      // The cursor is the last key of the previous page; an id that is not this account's key gives
      // no rows (the row comparison with NULL is never true).
      const rows = after
        ? sql(
            db,
            `SELECT * FROM api_keys WHERE account_id = ? AND (created_at, id) >
               (SELECT created_at, id FROM api_keys WHERE id = ? AND account_id = ?)
             ORDER BY created_at, id LIMIT ?`,
          ).all(accountId, after, accountId, limit)
        : sql(db, "SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id LIMIT ?").all(
            accountId,
            limit,
          );
      return rows.map(toKey);
    },
    async activeKeyCount(accountId) {
      const row = sql(
        db,
        "SELECT COUNT(*) AS n FROM api_keys WHERE account_id = ? AND revoked_at IS NULL",
      ).get(accountId);
      return Number(row?.n ?? 0);
    },
    async revokeKey(accountId, keyId, at) {
      const res = sql(
        db,
        "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL",
      ).run(at, keyId, accountId);
      return Number(res.changes) === 1;
    },
    async webhookSecret(accountId) {
      const r = sql(db, "SELECT webhook_secret FROM accounts WHERE id = ?").get(accountId);
      return r ? String(r.webhook_secret) : null;
    },
  };
}

export function createSqliteWebhookSecretStore(db: DatabaseSync): WebhookSecretStore {
  return {
    async webhookSecrets(accountId, now) {
      const r = sql(
        db,
        "SELECT webhook_secret, previous_webhook_secret, previous_webhook_secret_expires_at FROM accounts WHERE id = ?",
      ).get(accountId);
      if (!r) return null;
      const expiresAt = (r.previous_webhook_secret_expires_at as string | null) ?? null;
      const previous =
        r.previous_webhook_secret !== null && expiresAt !== null && expiresAt > now
          ? { secret: String(r.previous_webhook_secret), expiresAt }
          : null;
      return { secret: String(r.webhook_secret), previous };
    },
    async rotateWebhookSecret(accountId, secret, previousExpiresAt) {
      const res = sql(
        db,
        `UPDATE accounts SET previous_webhook_secret = webhook_secret,
           previous_webhook_secret_expires_at = ?, webhook_secret = ? WHERE id = ?`,
      ).run(previousExpiresAt, secret, accountId);
      return Number(res.changes) === 1;
    },
  };
}
