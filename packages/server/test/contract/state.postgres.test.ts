import type pg from "pg";
import { PgBoss } from "pg-boss";
import { afterAll, describe, it } from "vitest";
import {
  createPgAccountStore,
  createPgWebhookSecretStore,
} from "../../src/adapters/postgres/account-store.ts";
import { createPgAssetLibrary } from "../../src/adapters/postgres/asset-library.ts";
import { createPgAssetStore } from "../../src/adapters/postgres/asset-store.ts";
import { createPgBatchStore } from "../../src/adapters/postgres/batch-store.ts";
import { createPgDispatcher } from "../../src/adapters/postgres/dispatcher.ts";
import { createPgIdempotencyStore } from "../../src/adapters/postgres/idempotency-store.ts";
import { createPgImageUrlStore } from "../../src/adapters/postgres/image-url-store.ts";
import { createPgLedger } from "../../src/adapters/postgres/ledger.ts";
import { createPgPool } from "../../src/adapters/postgres/pool.ts";
import { createRenderQueue } from "../../src/adapters/postgres/render-jobs.ts";
import { createPgRenderLookups } from "../../src/adapters/postgres/render-lookups.ts";
import { startPgRenderWorkers } from "../../src/adapters/postgres/render-queue.ts";
import { createPgRenderStore } from "../../src/adapters/postgres/render-store.ts";
import { openPostgresState } from "../../src/adapters/postgres/state.ts";
import { createPgTemplateStore } from "../../src/adapters/postgres/template-store.ts";
import { createPgWebhookOutbox } from "../../src/adapters/postgres/webhook-outbox.ts";
import { giveUpRenderJob, type RenderJobDeps, runRenderJob } from "../../src/jobs/render-job.ts";
import { startPostgres } from "../support/postgres.ts";
import { accountsContract } from "./accounts.contract.ts";
import { assetLibraryContract } from "./asset-library.contract.ts";
import { assetsContract } from "./assets.contract.ts";
import { batchesAndSecretsContract } from "./batches-secrets.contract.ts";
import { type DispatcherFactory, dispatcherContract, FakeRenderThread } from "./dispatcher.contract.ts";
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

/**
 * The scaled mode's dispatcher in an "API process" (its own state and pg-boss), rendering in a
 * "worker process" (its own state and pg-boss) through the real worker loop with one render thread the
 * test drives, wired as main/serve-postgres.ts wires them (runRenderJob, the hash with the completion).
 */
const pgDispatcher =
  (pgCluster: NonNullable<typeof cluster>): DispatcherFactory =>
  async ({ maxQueued }) => {
    const url = await pgCluster.newDatabase();
    const newBoss = async () => {
      const boss = new PgBoss({ connectionString: url, max: 2, supervise: false, schedule: false });
      boss.on("error", () => {});
      await boss.start();
      return boss;
    };
    const apiBoss = await newBoss();
    await createRenderQueue(apiBoss);
    const workerBoss = await newBoss();
    const api = await openPostgresState(url, { max: 4 });
    const worker = await openPostgresState(url, { max: 4 });
    const dispatcher = await createPgDispatcher({
      url,
      pool: api.pool,
      boss: apiBoss,
      renders: api.renders,
      maxQueued,
    });
    const thread = new FakeRenderThread();
    const job: RenderJobDeps = {
      renders: worker.renders,
      clock: { now: () => new Date() },
      runTask: thread.runTask,
    };
    const stopWorkers = await startPgRenderWorkers(workerBoss, {
      url,
      capacity: 1,
      giveUp: (id) => giveUpRenderJob(job, id),
      run: (id) => runRenderJob(job, id),
    });
    return {
      dispatcher,
      stores: storesOn(api.pool),
      thread,
      roomSettled: () => dispatcher.countQueued(),
      async cleanup() {
        await stopWorkers();
        await dispatcher.close();
        await Promise.all([workerBoss.stop({ graceful: false }), apiBoss.stop({ graceful: false })]);
        await Promise.all([api.close(), worker.close()]);
      },
    };
  };

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
  dispatcherContract("PostgreSQL + pg-boss", pgDispatcher(cluster));
  postgresMigrationTests(cluster);
  renderJobsTests(cluster);
  renderQueueTests(cluster);
} else {
  describe.skip("PostgreSQL state contracts (needs apt-get install postgresql)", () => {
    it("skipped", () => {});
  });
}
