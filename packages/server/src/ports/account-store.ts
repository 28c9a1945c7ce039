export interface Account {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** First characters of the key, shown in lists so a person can tell keys apart. */
  prefix: string;
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A new account with its first key and its starting credits. */
export interface NewAccount {
  account: Account;
  webhookSecret: string;
  key: { id: string; hash: Uint8Array; prefix: string; name: string | null };
  grant: number;
}

export interface AccountStore {
  /** Creates the account, its first key and its trial grant in one unit of work. */
  create(input: NewAccount): Promise<void>;
  /**
   * As create(), but only while the store holds no account at all: false, with nothing written, once
   * one exists. Atomic across processes, so servers starting together on one database create one
   * trial account between them.
   */
  createIfNone(input: NewAccount): Promise<boolean>;
  get(accountId: string): Promise<Account | null>;
  /** Accounts in creation order, after the account `after` (a page's last id; null: from the first). */
  list(page: { limit: number; after: string | null }): Promise<Account[]>;
  /** Resolves an unrevoked key by the SHA-256 of its secret. */
  findKeyByHash(hash: Uint8Array): Promise<{ key: ApiKeyRecord; hash: Uint8Array } | null>;
  touchKey(keyId: string, at: string): Promise<void>;
  addKey(
    accountId: string,
    key: { id: string; hash: Uint8Array; prefix: string; name: string | null; createdAt: string },
  ): Promise<void>;
  /** Keys in creation order, after the key `after` (a page's last id; null: from the first). */
  listKeys(accountId: string, page: { limit: number; after: string | null }): Promise<ApiKeyRecord[]>;
  /** Keys not revoked. */
  activeKeyCount(accountId: string): Promise<number>;
  /** false when the key does not exist for this account or is already revoked. */
  revokeKey(accountId: string, keyId: string, at: string): Promise<boolean>;
  /** The current secret: the one new callbacks are signed with. */
  webhookSecret(accountId: string): Promise<string | null>;
}

/** Webhook secret rotation; kept apart from AccountStore so each backend adds it on its own. */
export interface WebhookSecretStore {
  /** Current and, while its grace period runs, previous secret (expired ones are not returned). */
  webhookSecrets(accountId: string, now: string): Promise<WebhookSecrets | null>;
  /**
   * Makes `secret` current and keeps the one it replaces as previous until `previousExpiresAt`.
   * An older previous secret is dropped. False when the account does not exist.
   */
  rotateWebhookSecret(accountId: string, secret: string, previousExpiresAt: string): Promise<boolean>;
}

export interface WebhookSecrets {
  secret: string;
  previous: { secret: string; expiresAt: string } | null;
}
