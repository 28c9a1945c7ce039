import type pg from "pg";
import type { ImageUrlStore } from "../../ports/image-url-store.ts";
import { cacheEntryFromRow, urlKeyFromRow } from "../sqlite/image-url-store.ts";

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

/** The PostgreSQL counterpart of adapters/sqlite/image-url-store.ts (tables: migration in migrations.ts). */
export function createPgImageUrlStore(pool: pg.Pool): ImageUrlStore {
  return {
    async createKey(key) {
      await pool.query(
        "INSERT INTO url_signing_keys (id, account_id, name, secret, created_at) VALUES ($1, $2, $3, $4, $5)",
        [key.id, key.accountId, key.name, key.secret, key.createdAt],
      );
    },
    async findKey(id, now) {
      const { rows } = await pool.query("SELECT * FROM url_signing_keys WHERE id = $1", [id]);
      return rows[0] ? urlKeyFromRow(rows[0], now, iso) : null;
    },
    async listKeys(accountId, now) {
      const { rows } = await pool.query(
        "SELECT * FROM url_signing_keys WHERE account_id = $1 ORDER BY created_at, id",
        [accountId],
      );
      return rows.map((r) => urlKeyFromRow(r, now, iso));
    },
    async countKeys(accountId) {
      const { rows } = await pool.query(
        "SELECT COUNT(*)::int AS n FROM url_signing_keys WHERE account_id = $1",
        [accountId],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async rotateKey(accountId, id, rotation) {
      const res = await pool.query(
        `UPDATE url_signing_keys SET previous_secret = secret, previous_expires_at = $1, secret = $2, rotated_at = $3
         WHERE id = $4 AND account_id = $5`,
        [rotation.previousExpiresAt, rotation.secret, rotation.at, id, accountId],
      );
      return res.rowCount === 1;
    },
    async deleteKey(accountId, id) {
      const res = await pool.query("DELETE FROM url_signing_keys WHERE id = $1 AND account_id = $2", [
        id,
        accountId,
      ]);
      return res.rowCount === 1;
    },
    async getEntry(accountId, cacheKey) {
      const { rows } = await pool.query(
        "SELECT * FROM image_cache WHERE account_id = $1 AND cache_key = $2",
        [accountId, cacheKey],
      );
      return rows[0] ? cacheEntryFromRow(rows[0], iso) : null;
    },
    async putEntry(e) {
      await pool.query(
        `INSERT INTO image_cache (account_id, cache_key, asset_id, template_id, template_version, byte_size, last_used_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (account_id, cache_key) DO UPDATE SET asset_id = excluded.asset_id,
           byte_size = excluded.byte_size, last_used_at = excluded.last_used_at, created_at = excluded.created_at`,
        [
          e.accountId,
          e.cacheKey,
          e.assetId,
          e.templateId,
          e.templateVersion,
          e.byteSize,
          e.lastUsedAt,
          e.createdAt,
        ],
      );
    },
    async touchEntry(accountId, cacheKey, at) {
      await pool.query(
        "UPDATE image_cache SET last_used_at = $1 WHERE account_id = $2 AND cache_key = $3 AND last_used_at < $1",
        [at, accountId, cacheKey],
      );
    },
    async deleteEntry(accountId, cacheKey, assetId) {
      const res = await pool.query(
        "DELETE FROM image_cache WHERE account_id = $1 AND cache_key = $2 AND asset_id = $3",
        [accountId, cacheKey, assetId],
      );
      return res.rowCount === 1;
    },
    async totalBytes(accountId) {
      const { rows } = await pool.query(
        "SELECT COALESCE(SUM(byte_size), 0)::bigint AS n FROM image_cache WHERE account_id = $1",
        [accountId],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async oldestEntries(accountId, limit) {
      const { rows } = await pool.query(
        "SELECT * FROM image_cache WHERE account_id = $1 ORDER BY last_used_at, cache_key LIMIT $2",
        [accountId, limit],
      );
      return rows.map((r) => cacheEntryFromRow(r, iso));
    },
  };
}
