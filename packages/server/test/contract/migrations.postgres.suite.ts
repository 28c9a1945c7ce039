import { describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "../../src/adapters/postgres/migrations.ts";
import { createPgPool } from "../../src/adapters/postgres/pool.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import type { ThrowawayPostgres } from "../support/postgres.ts";
import { backendDrift, ONE_BACKEND_ONLY, TYPE_MAPPING } from "./schema/parity.ts";
import { describeSchema, postgresSchema, sqliteSchema } from "./schema/snapshot.ts";

export function postgresMigrationTests(pg: ThrowawayPostgres): void {
  describe("PostgreSQL migrations", () => {
    it("applies every migration exactly once when three processes start together", async () => {
      const url = await pg.newDatabase();
      const pools = [0, 1, 2].map(() => createPgPool(url, { max: 1 }));
      try {
        const applied = await Promise.all(pools.map((p) => migrate(p)));
        expect(applied.flat().sort((a, b) => a - b)).toEqual(MIGRATIONS.map((_, i) => i + 1));
        expect(await migrate(pools[0] as (typeof pools)[0])).toEqual([]);
      } finally {
        await Promise.all(pools.map((p) => p.end()));
      }
    });

    it("upgrades a database holding data: balances and asset index rows are back-filled", async () => {
      const pool = createPgPool(await pg.newDatabase(), { max: 1 });
      try {
        expect(await migrate(pool, 2)).toEqual([1, 2]);
        await pool.query(
          "INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES ('acc_old', 'o', 's', now())",
        );
        await pool.query(
          `INSERT INTO ledger (account_id, kind, amount, render_id, note, created_at) VALUES
         ('acc_old', 'grant', 30, NULL, NULL, now()), ('acc_old', 'charge', -4, 'rnd_old', NULL, now())`,
        );
        await pool.query(
          `INSERT INTO assets (id, account_id, folder, name, content_type, byte_size, blob_key, token, etag, metadata, tags, created_at)
         VALUES ('ast_old', 'acc_old', '', 'a.png', 'image/png', 1, 'k', 'tok', 'e', '{"shop":"x"}', '["red","big"]',
                 '2026-01-02T03:04:05.678Z')`,
        );
        expect(await migrate(pool)).toEqual(MIGRATIONS.map((_, i) => i + 1).slice(2));
        const balance = await pool.query("SELECT balance FROM account_balances WHERE account_id = 'acc_old'");
        expect(Number(balance.rows[0].balance)).toBe(26);
        const tags = await pool.query(
          "SELECT tag, created_at FROM asset_tags WHERE asset_id = 'ast_old' ORDER BY tag",
        );
        expect(tags.rows.map((r) => [r.tag, r.created_at.toISOString()])).toEqual([
          ["big", "2026-01-02T03:04:05.678Z"],
          ["red", "2026-01-02T03:04:05.678Z"],
        ]);
        const meta = await pool.query("SELECT key, value FROM asset_metadata WHERE asset_id = 'ast_old'");
        expect(meta.rows).toEqual([{ key: "shop", value: "x" }]);
        await expect(pool.query("DELETE FROM ledger WHERE account_id = 'acc_old'")).rejects.toThrow(
          /append-only/,
        );
      } finally {
        await pool.end();
      }
    });

    it("a database migrated one version at a time from the first, holding data, equals a fresh one", async () => {
      // No separate fresh-install path here either: a new database runs every migration. So the
      // comparison is against a database that had data at version 1 and took each step on its own.
      const fresh = createPgPool(await pg.newDatabase(), { max: 1 });
      const stepped = createPgPool(await pg.newDatabase(), { max: 1 });
      try {
        await migrate(fresh);
        expect(await migrate(stepped, 1)).toEqual([1]);
        await stepped.query(`
          INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES ('acc_old', 'o', 's', now());
          INSERT INTO ledger (account_id, kind, amount, render_id, note, created_at) VALUES
            ('acc_old', 'grant', 30, NULL, NULL, now()), ('acc_old', 'charge', -4, 'rnd_old', NULL, now());
          INSERT INTO assets (id, account_id, folder, name, content_type, byte_size, blob_key, token, etag, metadata, tags, created_at)
            VALUES ('ast_old', 'acc_old', '', 'a.png', 'image/png', 1, 'k', 'tok', 'e', '{"shop":"x"}', '["red"]', now());
          INSERT INTO webhook_events (event_id, account_id, render_id, url, body, created_at, state, next_attempt_at)
            VALUES ('evt_old', 'acc_old', 'rnd_old', 'http://x', '{}', 1, 'pending', 1);
        `);
        for (let version = 2; version <= MIGRATIONS.length; version++) {
          expect(await migrate(stepped, version)).toEqual([version]);
        }
        expect(describeSchema(await postgresSchema(stepped))).toEqual(
          describeSchema(await postgresSchema(fresh)),
        );
      } finally {
        await Promise.all([fresh.end(), stepped.end()]);
      }
    });

    // The two schemas are written by hand, one migration list each; this holds them to each other:
    // tables, columns with their types (through TYPE_MAPPING), nullability, defaults, indexes, primary
    // keys, unique and foreign keys, checks and triggers. What may differ is declared in parity.ts.
    it("agrees with the SQLite schema through the declared mapping", async () => {
      const sqlite = sqliteSchema(openDatabase(":memory:"));
      const pool = createPgPool(await pg.newDatabase(), { max: 1 });
      try {
        await migrate(pool);
        const postgres = await postgresSchema(pool);
        expect(backendDrift(sqlite, postgres)).toEqual([]);
        // The declarations stay true: every allowed difference and every type pair is in use.
        for (const [backend, schema] of [
          ["postgres", postgres],
          ["sqlite", sqlite],
        ] as const) {
          for (const table of Object.keys(ONE_BACKEND_ONLY[backend].tables))
            expect(schema.tables).toHaveProperty(table);
          for (const index of Object.keys(ONE_BACKEND_ONLY[backend].indexes))
            expect(schema.indexes).toHaveProperty(index);
        }
        const used = new Set(
          Object.entries(sqlite.tables).flatMap(([name, t]) =>
            Object.entries(t.columns).map(
              ([column, c]) => `${c.type} ${postgres.tables[name]?.columns[column]?.type}`,
            ),
          ),
        );
        expect(TYPE_MAPPING.filter((m) => !used.has(`${m.sqlite} ${m.postgres}`))).toEqual([]);
      } finally {
        await pool.end();
      }
    });
  });
}
