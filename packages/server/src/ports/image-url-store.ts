/**
 * On-demand image URLs: the account's URL-signing keys and the render cache's entries.
 * Kept apart from AccountStore and AssetStore so each backend adds it on its own.
 */

export interface UrlSigningKey {
  /** `usk_…`: public, named in every signed URL's path. */
  id: string;
  accountId: string;
  name: string | null;
  /** `ussec_…`: the HMAC key. Kept as is (verifying needs it), returned only at creation and rotation. */
  secret: string;
  /** The secret a rotation replaced, valid until `previousExpiresAt`; null when none or expired. */
  previous: { secret: string; expiresAt: string } | null;
  createdAt: string;
  rotatedAt: string | null;
}

/** One cached output: what a (template version, frame, values, scale, format) of an account rendered to. */
export interface ImageCacheEntry {
  accountId: string;
  /** SHA-256 (hex) of the canonical render inputs (domain/image-urls/cache-key.ts). */
  cacheKey: string;
  assetId: string;
  templateId: string;
  templateVersion: number;
  byteSize: number;
  /** Epoch ms of the last request served from it: eviction takes the least recent first. */
  lastUsedAt: number;
  createdAt: string;
}

export interface ImageUrlStore {
  createKey(key: Omit<UrlSigningKey, "previous" | "rotatedAt">): Promise<void>;
  /** Any account (the id is in a public URL); the caller verifies a signature before using it. */
  findKey(id: string, now: string): Promise<UrlSigningKey | null>;
  /** The account's keys, oldest first. */
  listKeys(accountId: string, now: string): Promise<UrlSigningKey[]>;
  countKeys(accountId: string): Promise<number>;
  /** Makes `secret` current, keeping the replaced one until `previousExpiresAt`; false when no such key in the account. */
  rotateKey(
    accountId: string,
    id: string,
    rotation: { secret: string; previousExpiresAt: string; at: string },
  ): Promise<boolean>;
  /** False when no such key in the account. */
  deleteKey(accountId: string, id: string): Promise<boolean>;

  getEntry(accountId: string, cacheKey: string): Promise<ImageCacheEntry | null>;
  /** Inserts, or replaces an entry of the same key (another process rendered it meanwhile). */
  putEntry(entry: ImageCacheEntry): Promise<void>;
  touchEntry(accountId: string, cacheKey: string, at: number): Promise<void>;
  /** Removes it only while it still names `assetId`; true when this call removed it. */
  deleteEntry(accountId: string, cacheKey: string, assetId: string): Promise<boolean>;
  /**
   * Bytes of the account's entries: each account has its own share of the cache, so one account's
   * renders never evict (and so charge again) another's.
   */
  totalBytes(accountId: string): Promise<number>;
  /** The account's least recently used entries, oldest first. */
  oldestEntries(accountId: string, limit: number): Promise<ImageCacheEntry[]>;
}
