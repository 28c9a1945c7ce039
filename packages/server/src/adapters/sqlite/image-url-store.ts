import type { DatabaseSync } from "node:sqlite";
import type { ImageCacheEntry, ImageUrlStore, UrlSigningKey } from "../../ports/image-url-store.ts";
import type { Row } from "../sql-rows.ts";
import { sql } from "./statements.ts";

export function urlKeyFromRow(r: Row, now: string, iso: (v: unknown) => string): UrlSigningKey {
  const expiresAt = r.previous_expires_at === null ? null : iso(r.previous_expires_at);
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    name: r.name === null ? null : String(r.name),
    secret: String(r.secret),
    previous:
      r.previous_secret !== null && expiresAt !== null && expiresAt > now
        ? { secret: String(r.previous_secret), expiresAt }
        : null,
    createdAt: iso(r.created_at),
    rotatedAt: r.rotated_at === null ? null : iso(r.rotated_at),
  };
}

export function cacheEntryFromRow(r: Row, iso: (v: unknown) => string): ImageCacheEntry {
  return {
    accountId: String(r.account_id),
    cacheKey: String(r.cache_key),
    assetId: String(r.asset_id),
    templateId: String(r.template_id),
    templateVersion: Number(r.template_version),
    byteSize: Number(r.byte_size),
    lastUsedAt: Number(r.last_used_at),
    createdAt: iso(r.created_at),
  };
}

const iso = (v: unknown) => String(v);

export function createSqliteImageUrlStore(db: DatabaseSync): ImageUrlStore {
  return {
    async createKey(key) {
      sql(
        db,
        "INSERT INTO url_signing_keys (id, account_id, name, secret, created_at) VALUES (?, ?, ?, ?, ?)",
      ).run(key.id, key.accountId, key.name, key.secret, key.createdAt);
    },
    async findKey(id, now) {
      const r = sql(db, "SELECT * FROM url_signing_keys WHERE id = ?").get(id);
      return r ? urlKeyFromRow(r, now, iso) : null;
    },
    async listKeys(accountId, now) {
      return sql(db, "SELECT * FROM url_signing_keys WHERE account_id = ? ORDER BY created_at, id")
        .all(accountId)
        .map((r) => urlKeyFromRow(r, now, iso));
    },
    async countKeys(accountId) {
      const r = sql(db, "SELECT COUNT(*) AS n FROM url_signing_keys WHERE account_id = ?").get(accountId);
      return Number(r?.n ?? 0);
    },
    async rotateKey(accountId, id, rotation) {
      // One statement: the old secret moves to previous atomically, even if two rotations race.
      const res = sql(
        db,
        `UPDATE url_signing_keys SET previous_secret = secret, previous_expires_at = ?, secret = ?, rotated_at = ?
         WHERE id = ? AND account_id = ?`,
      ).run(rotation.previousExpiresAt, rotation.secret, rotation.at, id, accountId);
      return Number(res.changes) === 1;
    },
    async deleteKey(accountId, id) {
      const res = sql(db, "DELETE FROM url_signing_keys WHERE id = ? AND account_id = ?").run(id, accountId);
      return Number(res.changes) === 1;
    },
    async getEntry(accountId, cacheKey) {
      const r = sql(db, "SELECT * FROM image_cache WHERE account_id = ? AND cache_key = ?").get(
        accountId,
        cacheKey,
      );
      return r ? cacheEntryFromRow(r, iso) : null;
    },
    async putEntry(e) {
      sql(
        db,
        `INSERT INTO image_cache (account_id, cache_key, asset_id, template_id, template_version, byte_size, last_used_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, cache_key) DO UPDATE SET asset_id = excluded.asset_id,
           byte_size = excluded.byte_size, last_used_at = excluded.last_used_at, created_at = excluded.created_at`,
      ).run(
        e.accountId,
        e.cacheKey,
        e.assetId,
        e.templateId,
        e.templateVersion,
        e.byteSize,
        e.lastUsedAt,
        e.createdAt,
      );
    },
    async touchEntry(accountId, cacheKey, at) {
      sql(
        db,
        "UPDATE image_cache SET last_used_at = ? WHERE account_id = ? AND cache_key = ? AND last_used_at < ?",
      ).run(at, accountId, cacheKey, at);
    },
    async deleteEntry(accountId, cacheKey, assetId) {
      const res = sql(
        db,
        "DELETE FROM image_cache WHERE account_id = ? AND cache_key = ? AND asset_id = ?",
      ).run(accountId, cacheKey, assetId);
      return Number(res.changes) === 1;
    },
    async totalBytes(accountId) {
      const r = sql(db, "SELECT COALESCE(SUM(byte_size), 0) AS n FROM image_cache WHERE account_id = ?").get(
        accountId,
      );
      return Number(r?.n ?? 0);
    },
    async oldestEntries(accountId, limit) {
      return sql(
        db,
        "SELECT * FROM image_cache WHERE account_id = ? ORDER BY last_used_at, cache_key LIMIT ?",
      )
        .all(accountId, limit)
        .map((r) => cacheEntryFromRow(r, iso));
    },
  };
}
