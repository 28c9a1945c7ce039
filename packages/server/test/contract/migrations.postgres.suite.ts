import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "../../src/adapters/postgres/migrations.ts";
import { createPgPool } from "../../src/adapters/postgres/pool.ts";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import type { ThrowawayPostgres } from "../support/postgres.ts";

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

    // The PostgreSQL schema mirrors the SQLite one; a SQLite migration without its PostgreSQL twin
    // (or the reverse) fails here instead of in production.
    it("has the same tables and columns as the SQLite schema", async () => {
      const dir = await mkdtemp(join(tmpdir(), "pictor-schema-"));
      const db = openDatabase(join(dir, "pictor.db"));
      const sqlite: Record<string, string[]> = {};
      try {
        const tables = db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
          .all();
        for (const { name } of tables) {
          const cols = db.prepare(`PRAGMA table_info(${String(name)})`).all();
          sqlite[String(name)] = cols.map((c) => String(c.name)).sort();
        }
      } finally {
        db.close();
        await rm(dir, { recursive: true, force: true });
      }

      const pool = createPgPool(await pg.newDatabase(), { max: 1 });
      const postgres: Record<string, string[]> = {};
      try {
        await migrate(pool);
        const { rows } = await pool.query(
          `SELECT table_name, column_name FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> 'pictor_migrations' ORDER BY table_name, column_name`,
        );
        for (const r of rows) {
          postgres[r.table_name] = [...(postgres[r.table_name] ?? []), r.column_name];
        }
        for (const cols of Object.values(postgres)) cols.sort();
      } finally {
        await pool.end();
      }
      expect(postgres).toEqual(sqlite);
    });
  });
}
