import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { createLocalDispatcher } from "../../src/adapters/queue/local-dispatcher.ts";
import { createLocalRenderQueue } from "../../src/adapters/queue/local-render-queue.ts";
import {
  createSqliteAccountStore,
  createSqliteWebhookSecretStore,
} from "../../src/adapters/sqlite/account-store.ts";
import { createSqliteAssetLibrary } from "../../src/adapters/sqlite/asset-library.ts";
import { createSqliteAssetStore } from "../../src/adapters/sqlite/asset-store.ts";
import { createSqliteBatchStore } from "../../src/adapters/sqlite/batch-store.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteIdempotencyStore } from "../../src/adapters/sqlite/idempotency-store.ts";
import { createSqliteImageUrlStore } from "../../src/adapters/sqlite/image-url-store.ts";
import { createSqliteLedger } from "../../src/adapters/sqlite/ledger.ts";
import { createSqliteRenderLookups } from "../../src/adapters/sqlite/render-lookups.ts";
import { createSqliteRenderStore } from "../../src/adapters/sqlite/render-store.ts";
import { createSqliteTemplateStore } from "../../src/adapters/sqlite/template-store.ts";
import { createSqliteWebhookOutbox } from "../../src/adapters/sqlite/webhook-outbox.ts";
import { giveUpRenderJob, type RenderJobDeps, runRenderJob } from "../../src/jobs/render-job.ts";
import { accountsContract } from "./accounts.contract.ts";
import { assetLibraryContract } from "./asset-library.contract.ts";
import { assetsContract } from "./assets.contract.ts";
import { batchesAndSecretsContract } from "./batches-secrets.contract.ts";
import { type DispatcherFactory, dispatcherContract, FakeRenderThread } from "./dispatcher.contract.ts";
import { idempotencyContract } from "./idempotency.contract.ts";
import { imageUrlsContract } from "./image-urls.contract.ts";
import { ledgerRendersContract } from "./ledger-renders.contract.ts";
import { renderLookupsContract } from "./render-lookups.contract.ts";
import type { StateFactory, StateStores } from "./state-fixture.ts";
import { templatesContract } from "./templates.contract.ts";
import { webhookOutboxContract } from "./webhook-outbox.contract.ts";

const storesOn = (db: DatabaseSync): StateStores => ({
  library: createSqliteAssetLibrary(db),
  accounts: createSqliteAccountStore(db),
  secrets: createSqliteWebhookSecretStore(db),
  batches: createSqliteBatchStore(db),
  outbox: createSqliteWebhookOutbox(db),
  templates: createSqliteTemplateStore(db),
  assets: createSqliteAssetStore(db),
  ledger: createSqliteLedger(db),
  renders: createSqliteRenderStore(db),
  idempotency: new SqliteIdempotencyStore(db),
  imageUrls: createSqliteImageUrlStore(db),
});

const sqlite: StateFactory = async () => {
  const dir = await mkdtemp(join(tmpdir(), "pictor-contract-sqlite-"));
  const file = join(dir, "pictor.db");
  const db = openDatabase(file);
  // A second connection to the same file stands in for a second process (the CLI beside the server).
  const otherDb = openDatabase(file);
  return {
    ...storesOn(db),
    other: storesOn(otherDb),
    lookups: createSqliteRenderLookups(file),
    async cleanup() {
      otherDb.close();
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

accountsContract("SQLite", sqlite);
templatesContract("SQLite", sqlite);
assetLibraryContract("SQLite", sqlite);
assetsContract("SQLite", sqlite);
ledgerRendersContract("SQLite", sqlite);
idempotencyContract("SQLite", sqlite);
batchesAndSecretsContract("SQLite", sqlite);
webhookOutboxContract("SQLite", sqlite);
imageUrlsContract("SQLite", sqlite);
renderLookupsContract("SQLite", sqlite);

/**
 * The embedded default's dispatcher over its real local queue, with one render thread the test
 * drives, wired as main/serve-sqlite.ts wires it (runRenderJob, early start for a waiting caller).
 */
const localDispatcher: DispatcherFactory = async ({ maxQueued }) => {
  const dir = await mkdtemp(join(tmpdir(), "pictor-contract-dispatcher-"));
  const db = openDatabase(join(dir, "pictor.db"));
  const stores = storesOn(db);
  const thread = new FakeRenderThread();
  const job: RenderJobDeps = {
    renders: stores.renders,
    clock: { now: () => new Date() },
    runTask: thread.runTask,
  };
  const queue = createLocalRenderQueue({
    renders: stores.renders,
    concurrency: 1,
    maxQueued,
    giveUp: (id) => giveUpRenderJob(job, id),
    run: (id, accepted, admitted) => runRenderJob(job, id, accepted, admitted),
  });
  return {
    dispatcher: createLocalDispatcher({ queue, renders: stores.renders, ledger: stores.ledger }),
    stores,
    thread,
    roomSettled: async () => {},
    async cleanup() {
      await queue.drain();
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

dispatcherContract("local queue (SQLite)", localDispatcher);
