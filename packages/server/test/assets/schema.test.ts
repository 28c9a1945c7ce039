import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, it } from "vitest";
import { createSqliteAssetLibrary } from "../../src/adapters/sqlite/asset-library.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { migrate } from "../../src/adapters/sqlite/migrations.ts";
import { parseAssetQuery } from "../../src/domain/assets/query-request.ts";

const dir = mkdtempSync(join(tmpdir(), "pictor-asset-schema-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database as a build from before the asset library's migration left it: at version 6. */
function atVersion6(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  migrate(db, 6);
  return db;
}

it("indexes assets written before the library's tables existed, once, when the database is opened", async () => {
  const file = join(dir, "old.db");
  const db = atVersion6(file);
  db.exec(
    "INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES ('acct_old', 'old', 's', '2026-01-01')",
  );
  db.prepare(
    `INSERT INTO assets (id, account_id, folder, name, content_type, byte_size, width, height, blob_key, token, etag,
       metadata, tags, render_id, created_at)
     VALUES ('ast_old', 'acct_old', 'renders/promo/', 'x.png', 'image/png', 1, 1, 1, 'k', 't0', '"e"', ?, ?, 'rnd_old', ?)`,
  ).run('{"campaign":"spring"}', '["social"]', "2026-01-02T00:00:00.000Z");
  db.close();

  const reopened = openDatabase(file);
  const library = createSqliteAssetLibrary(reopened);
  const query = parseAssetQuery({ tags: ["social"], metadata: { campaign: "spring" } });
  if (!query.ok) throw new Error(query.message);
  const page = await library.query("acct_old", query.value);
  expect(page.assets.map((a) => a.id)).toEqual(["ast_old"]);
  expect(page.assets[0]?.sha256).toBeNull();
  reopened.close();
  // Opening again does not index twice.
  const third = openDatabase(file);
  expect(third.prepare("SELECT count(*) AS n FROM asset_tags").get()?.n).toBe(1);
  third.close();
});

it("upgrades an asset_files table from before render outputs were hashed: uploads still dedupe, outputs may repeat", () => {
  const file = join(dir, "before-output-hashes.db");
  const db = atVersion6(file);
  db.exec(`
    CREATE TABLE asset_files (asset_id TEXT PRIMARY KEY, account_id TEXT NOT NULL, sha256 TEXT NOT NULL,
      font_family TEXT, font_weight INTEGER, font_style TEXT);
    CREATE UNIQUE INDEX asset_files_sha ON asset_files(account_id, sha256);
    INSERT INTO asset_files (asset_id, account_id, sha256) VALUES ('ast_up', 'acct_a', 'aa');
  `);
  db.close();

  const reopened = openDatabase(file);
  const insert = (id: string, renderOutput: 0 | 1) =>
    reopened
      .prepare(
        "INSERT INTO asset_files (asset_id, account_id, sha256, render_output) VALUES (?, 'acct_a', 'aa', ?)",
      )
      .run(id, renderOutput);
  expect(reopened.prepare("SELECT render_output FROM asset_files WHERE asset_id = 'ast_up'").get()).toEqual({
    render_output: 0,
  });
  expect(() => insert("ast_up2", 0)).toThrow(/UNIQUE/);
  insert("ast_out1", 1);
  insert("ast_out2", 1);
  reopened.close();
  openDatabase(file).close(); // a second open finds nothing left to change
});
