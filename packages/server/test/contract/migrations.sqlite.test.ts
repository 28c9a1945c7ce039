import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { MIGRATIONS, migrate, schemaVersion } from "../../src/adapters/sqlite/migrations.ts";
import { describeSchema, sqliteSchema } from "./schema/snapshot.ts";
import { EARLIER_BUILDS } from "./schema/sqlite-earlier-builds.ts";

// SQLite has no separate fresh-install path: a new database runs every migration from the first. So
// "migrated equals fresh" is tested on databases that did not start empty at today's build: one
// migrated a version at a time from the first with data in it, and the data directories earlier
// builds left (their stores made tables of their own on open, in shapes that changed).

const dir = mkdtempSync(join(tmpdir(), "pictor-sqlite-migrations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `db-${++files}.db`);

function freshSchema() {
  const db = openDatabase(newFile());
  try {
    return describeSchema(sqliteSchema(db));
  } finally {
    db.close();
  }
}

/** Rows every version has tables for (migration 1): an account with credit spent, an asset, a render. */
function seedVersion1(db: DatabaseSync): void {
  db.exec(`
    INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES ('acc_old', 'old', 's', '2026-01-01T00:00:00.000Z');
    INSERT INTO ledger (account_id, kind, amount, render_id, note, created_at) VALUES
      ('acc_old', 'grant', 30, NULL, NULL, '2026-01-01T00:00:00.000Z'),
      ('acc_old', 'charge', -4, 'rnd_old', NULL, '2026-01-01T00:00:01.000Z');
    INSERT INTO assets (id, account_id, folder, name, content_type, byte_size, width, height, blob_key, token, etag,
        metadata, tags, render_id, created_at)
      VALUES ('ast_old', 'acc_old', '', 'a.png', 'image/png', 1, 1, 1, 'k', 'tok', '"e"', '{"shop":"x"}',
        '["red","big"]', NULL, '2026-01-02T03:04:05.678Z');
  `);
}

function expectDataKept(db: DatabaseSync): void {
  expect(db.prepare("SELECT balance FROM account_balances WHERE account_id = 'acc_old'").get()).toEqual({
    balance: 26,
  });
  expect(
    db.prepare("SELECT tag, created_at FROM asset_tags WHERE asset_id = 'ast_old' ORDER BY tag").all(),
  ).toEqual([
    { tag: "big", created_at: "2026-01-02T03:04:05.678Z" },
    { tag: "red", created_at: "2026-01-02T03:04:05.678Z" },
  ]);
  expect(db.prepare("SELECT key, value FROM asset_metadata WHERE asset_id = 'ast_old'").all()).toEqual([
    { key: "shop", value: "x" },
  ]);
  // The trigger keeps the balance and the ledger stays append-only.
  db.exec(
    "INSERT INTO ledger (account_id, kind, amount, created_at) VALUES ('acc_old', 'grant', 4, '2026-01-03T00:00:00.000Z')",
  );
  expect(db.prepare("SELECT balance FROM account_balances WHERE account_id = 'acc_old'").get()).toEqual({
    balance: 30,
  });
  expect(() => db.exec("DELETE FROM ledger")).toThrow(/append-only/);
}

describe("SQLite migrations", () => {
  it("a database migrated one version at a time from the first, holding data, equals a fresh one", () => {
    const fresh = freshSchema();
    const db = new DatabaseSync(newFile());
    try {
      expect(migrate(db, 1)).toEqual([1]);
      seedVersion1(db);
      for (let version = 2; version <= MIGRATIONS.length; version++) {
        expect(migrate(db, version)).toEqual([version]);
      }
      expect(schemaVersion(db)).toBe(MIGRATIONS.length);
      expect(describeSchema(sqliteSchema(db))).toEqual(fresh);
      expectDataKept(db);
      expect(migrate(db)).toEqual([]);
    } finally {
      db.close();
    }
  });

  for (const earlier of EARLIER_BUILDS) {
    it(`a data directory from ${earlier.build} opens, migrates and equals a fresh one`, () => {
      const fresh = freshSchema();
      const file = newFile();
      const old = new DatabaseSync(file);
      migrate(old, earlier.version);
      seedVersion1(old);
      for (const sql of earlier.onOpen) old.exec(sql);
      const has = (table: string) =>
        old.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
      if (has("asset_files")) {
        old.exec(
          "INSERT INTO asset_files (asset_id, account_id, sha256) VALUES ('ast_old', 'acc_old', 'aa')",
        );
      }
      old.exec(`INSERT INTO webhook_events (event_id, account_id, render_id, url, body, created_at, state, next_attempt_at)
        VALUES ('evt_old', 'acc_old', 'rnd_old', 'http://x', '{}', 1, 'pending', 1)`);
      old.close();

      const db = openDatabase(file);
      try {
        expect(schemaVersion(db)).toBe(MIGRATIONS.length);
        expect(describeSchema(sqliteSchema(db))).toEqual(fresh);
        expectDataKept(db);
        expect(db.prepare("SELECT event_id FROM webhook_events").all()).toEqual([{ event_id: "evt_old" }]);
        if (earlier.version > 1) {
          // An upload recorded before render outputs were: still an upload, and its hash still dedupes.
          expect(db.prepare("SELECT render_output FROM asset_files").all()).toEqual([{ render_output: 0 }]);
          expect(() =>
            db.exec(
              "INSERT INTO asset_files (asset_id, account_id, sha256) VALUES ('ast_two', 'acc_old', 'aa')",
            ),
          ).toThrow(/UNIQUE/);
        }
      } finally {
        db.close();
      }
      // Opening it again finds nothing left to do.
      const again = openDatabase(file);
      expect(migrate(again)).toEqual([]);
      again.close();
    });
  }

  it("a second connection to the database applies only what the first has not", () => {
    const file = newFile();
    const a = new DatabaseSync(file);
    const b = new DatabaseSync(file);
    try {
      a.exec("PRAGMA busy_timeout = 10000");
      b.exec("PRAGMA busy_timeout = 10000");
      const applied = [...migrate(a, 3), ...migrate(b), ...migrate(a)];
      expect(applied).toEqual(MIGRATIONS.map((_, i) => i + 1));
    } finally {
      a.close();
      b.close();
    }
  });
});
