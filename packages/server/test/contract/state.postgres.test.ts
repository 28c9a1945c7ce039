import type pg from "pg";
import { afterAll, describe, it } from "vitest";
import {
  createPgAccountStore,
  createPgWebhookSecretStore,
} from "../../src/adapters/postgres/account-store.ts";
import { createPgAssetLibrary } from "../../src/adapters/postgres/asset-library.ts";
import { createPgAssetStore } from "../../src/adapters/postgres/asset-store.ts";
import { createPgBatchStore } from "../../src/adapters/postgres/batch-store.ts";
import { createPgIdempotencyStore } from "../../src/adapters/postgres/idempotency-store.ts";
import { createPgImageUrlStore } from "../../src/adapters/postgres/image-url-store.ts";
import { createPgLedger } from "../../src/adapters/postgres/ledger.ts";
import { createPgPool } from "../../src/adapters/postgres/pool.ts";
import { createPgRenderLookups } from "../../src/adapters/postgres/render-lookups.ts";
import { createPgRenderStore } from "../../src/adapters/postgres/render-store.ts";
import { openPostgresState } from "../../src/adapters/postgres/state.ts";
import { createPgTemplateStore } from "../../src/adapters/postgres/template-store.ts";
import { createPgWebhookOutbox } from "../../src/adapters/postgres/webhook-outbox.ts";
import { startPostgres } from "../support/postgres.ts";
import { accountsContract } from "./accounts.contract.ts";
import { assetLibraryContract } from "./asset-library.contract.ts";
import { assetsContract } from "./assets.contract.ts";
import { batchesAndSecretsContract } from "./batches-secrets.contract.ts";
import { idempotencyContract } from "./idempotency.contract.ts";
import { imageUrlsContract } from "./image-urls.contract.ts";
import { ledgerRendersContract } from "./ledger-renders.contract.ts";
import { postgresMigrationTests } from "./migrations.postgres.suite.ts";
import { renderJobsTests } from "./render-jobs.postgres.suite.ts";
import { renderLookupsContract } from "./render-lookups.contract.ts";
import { renderQueueTests } from "./render-queue.postgres.suite.ts";
import type { StateFactory, StateStores } from "./state-fixture.ts";
import { templatesContract } from "./templates.contract.ts";
import { webhookOutboxContract } from "./webhook-outbox.contract.ts";

// One throwaway cluster for every PostgreSQL suite (initdb + start is the expensive part); each suite
// gets its own database, so nothing leaks between them.
const cluster = await startPostgres(
  "PostgreSQL state contracts, migrations and pg-boss enqueue (test/contract/state.postgres.test.ts)",
);
afterAll(() => cluster?.stop());

const storesOn = (pool: pg.Pool): StateStores => ({
  library: createPgAssetLibrary(pool),
  accounts: createPgAccountStore(pool),
  secrets: createPgWebhookSecretStore(pool),
  batches: createPgBatchStore(pool),
  outbox: createPgWebhookOutbox(pool),
  templates: createPgTemplateStore(pool),
  assets: createPgAssetStore(pool),
  ledger: createPgLedger(pool),
  renders: createPgRenderStore(pool),
  idempotency: createPgIdempotencyStore(pool),
  imageUrls: createPgImageUrlStore(pool),
});

if (cluster) {
  const postgres: StateFactory = async () => {
    const url = await cluster.newDatabase();
    const state = await openPostgresState(url, { max: 4 });
    // Its own pool: another process's connections, not a second handle on the same ones.
    const otherPool = createPgPool(url, { max: 4 });
    const lookups = createPgRenderLookups(url);
    return {
      ...storesOn(state.pool),
      other: storesOn(otherPool),
      lookups,
      cleanup: async () => {
        await Promise.all([state.close(), otherPool.end(), lookups.close()]);
      },
    };
  };
  accountsContract("PostgreSQL", postgres);
  templatesContract("PostgreSQL", postgres);
  assetLibraryContract("PostgreSQL", postgres);
  assetsContract("PostgreSQL", postgres);
  ledgerRendersContract("PostgreSQL", postgres);
  idempotencyContract("PostgreSQL", postgres);
  batchesAndSecretsContract("PostgreSQL", postgres);
  webhookOutboxContract("PostgreSQL", postgres);
  imageUrlsContract("PostgreSQL", postgres);
  renderLookupsContract("PostgreSQL", postgres);
  postgresMigrationTests(cluster);
  renderJobsTests(cluster);
  renderQueueTests(cluster);
} else {
  describe.skip("PostgreSQL state contracts (needs apt-get install postgresql)", () => {
    it("skipped", () => {});
  });
}
