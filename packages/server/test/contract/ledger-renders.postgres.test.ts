import { afterAll, describe, it } from "vitest";
import { createPgLedger } from "../../src/adapters/postgres/ledger.ts";
import { migrate } from "../../src/adapters/postgres/migrations.ts";
import { createPgPool } from "../../src/adapters/postgres/pool.ts";
import { createPgRenderStore } from "../../src/adapters/postgres/render-store.ts";
import { startPostgres } from "../support/postgres.ts";
import { ledgerRendersContract } from "./ledger-renders.contract.ts";

const cluster = await startPostgres(
  "Ledger + RenderStore contract: PostgreSQL (test/contract/ledger-renders.postgres.test.ts)",
);
afterAll(() => cluster?.stop());

if (cluster) {
  ledgerRendersContract("PostgreSQL", async () => {
    const url = await cluster.newDatabase();
    const pool = createPgPool(url, { max: 4 });
    await migrate(pool);
    // Its own pool: another process's connections, not a second handle on the same ones.
    const otherPool = createPgPool(url, { max: 4 });
    return {
      ledger: createPgLedger(pool),
      renders: createPgRenderStore(pool),
      other: { ledger: createPgLedger(otherPool), renders: createPgRenderStore(otherPool) },
      async seedAccount(id, createdAt) {
        await pool.query(
          "INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES ($1, $2, $3, $4)",
          [id, "contract", "whsec_contract", createdAt],
        );
      },
      async seedTemplateVersion(accountId, templateId, version, document) {
        const doc = JSON.stringify(document);
        await pool.query(
          `INSERT INTO templates (id, account_id, key, name, draft, published_version, created_at, updated_at)
           VALUES ($1, $2, $1, 'contract', $3, $4, now(), now())`,
          [templateId, accountId, doc, version],
        );
        await pool.query(
          "INSERT INTO template_versions (template_id, version, document, published_at) VALUES ($1, $2, $3, now())",
          [templateId, version, doc],
        );
      },
      async cleanup() {
        await Promise.all([pool.end(), otherPool.end()]);
      },
    };
  });
} else {
  describe.skip("Ledger + RenderStore contract: PostgreSQL (needs apt-get install postgresql)", () => {
    it("skipped", () => {});
  });
}
