import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { createSqliteLedger } from "../../src/adapters/sqlite/ledger.ts";
import { createSqliteRenderStore } from "../../src/adapters/sqlite/render-store.ts";
import { ledgerRendersContract } from "./ledger-renders.contract.ts";

ledgerRendersContract("SQLite", async () => {
  const dir = await mkdtemp(join(tmpdir(), "pictor-contract-sqlite-"));
  const file = join(dir, "pictor.db");
  const db = openDatabase(file);
  // A second connection to the same file stands in for a second process (the CLI beside the server).
  const otherDb = openDatabase(file);
  return {
    ledger: createSqliteLedger(db),
    renders: createSqliteRenderStore(db),
    other: { ledger: createSqliteLedger(otherDb), renders: createSqliteRenderStore(otherDb) },
    async seedAccount(id, createdAt) {
      db.prepare("INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (?, ?, ?, ?)").run(
        id,
        "contract",
        "whsec_contract",
        createdAt,
      );
    },
    async seedTemplateVersion(accountId, templateId, version, document) {
      const doc = JSON.stringify(document);
      db.prepare(
        `INSERT INTO templates (id, account_id, key, name, draft, published_version, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        templateId,
        accountId,
        templateId,
        "contract",
        doc,
        version,
        "2026-01-01T00:00:00.000Z",
        "2026-01-01T00:00:00.000Z",
      );
      db.prepare(
        "INSERT INTO template_versions (template_id, version, document, published_at) VALUES (?, ?, ?, ?)",
      ).run(templateId, version, doc, "2026-01-01T00:00:00.000Z");
    },
    async cleanup() {
      otherDb.close();
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
