import { createPgAccountStore, createPgWebhookSecretStore } from "./account-store.ts";
import { createPgAssetLibrary } from "./asset-library.ts";
import { createPgAssetStore } from "./asset-store.ts";
import { createPgBatchStore } from "./batch-store.ts";
import { createPgIdempotencyStore } from "./idempotency-store.ts";
import { createPgLedger } from "./ledger.ts";
import { migrate } from "./migrations.ts";
import { createPgPool, type PgPoolOptions } from "./pool.ts";
import { createPgRenderStore } from "./render-store.ts";
import { createPgTemplateStore } from "./template-store.ts";
import { createPgWebhookOutbox } from "./webhook-outbox.ts";

export type PostgresStateOptions = PgPoolOptions;

/**
 * Every state port on one PostgreSQL database, migrated: the scaled-out counterpart of the SQLite
 * stores that main/data-dir.ts opens for the embedded default. One pool per process.
 */
export async function openPostgresState(url: string, options: PostgresStateOptions = {}) {
  const pool = createPgPool(url, options);
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    pool,
    accounts: createPgAccountStore(pool),
    webhookSecrets: createPgWebhookSecretStore(pool),
    templates: createPgTemplateStore(pool),
    renders: createPgRenderStore(pool),
    assets: createPgAssetStore(pool),
    assetLibrary: createPgAssetLibrary(pool),
    ledger: createPgLedger(pool),
    idempotency: createPgIdempotencyStore(pool),
    batches: createPgBatchStore(pool),
    outbox: createPgWebhookOutbox(pool),
    close: () => pool.end(),
  };
}

export type PostgresState = Awaited<ReturnType<typeof openPostgresState>>;
