import { chmodSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import type { ColumnDecoding } from "../sql-rows.ts";
import { migrate } from "./migrations.ts";
import { sql } from "./statements.ts";

/**
 * The database holds webhook secrets as they are (signing needs them) and key hashes: readable by
 * its owner only, like signing.key. SQLite gives the -wal and -shm files the database file's mode
 * when it creates them; existing ones are narrowed too. A file owned by someone else is left as is.
 */
function restrictToOwner(file: string): void {
  if (file === ":memory:") return;
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch {}
  }
}

export function openDatabase(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  restrictToOwner(file);
  // WAL lets the CLI write (accounts create, credits grant) while the server runs; busy_timeout makes
  // the other process wait for the write lock instead of failing with SQLITE_BUSY.
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA busy_timeout = 10000");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  // Every table, index and trigger comes from the numbered migrations (migrations.ts).
  migrate(db);
  return db;
}

/** BEGIN IMMEDIATE takes the write lock up front, so read-then-write (balance checks) cannot race. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  // Prepared once per connection (sql): exec would parse the statement again on every render.
  sql(db, "BEGIN IMMEDIATE").run();
  try {
    const result = fn();
    sql(db, "COMMIT").run();
    return result;
  } catch (error) {
    sql(db, "ROLLBACK").run();
    throw error;
  }
}

export const json = (value: unknown) => JSON.stringify(value);
export const parse = <T>(text: unknown): T => JSON.parse(String(text)) as T;

/** SQLite hands JSON back as the text we stored and timestamps as the ISO strings we stored. */
export const sqliteColumns: ColumnDecoding = {
  json: parse,
  time: (value) => String(value),
  timeOrNull: (value) => (value as string | null) ?? null,
};
