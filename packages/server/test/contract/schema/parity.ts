import type { ColumnShape, IndexShape, SchemaShape, TableShape } from "./snapshot.ts";

/**
 * How a SQLite column type stands for a PostgreSQL one: the only pairs the two schemas may differ by.
 * A column whose pair is not here is drift. One SQLite type maps to several PostgreSQL ones because
 * SQLite has five storage classes; which of them a column means is the PostgreSQL side's to say, and
 * the adapters decode it through sql-rows.ts with each dialect's ColumnDecoding.
 */
export const TYPE_MAPPING: readonly { sqlite: string; postgres: string; why: string }[] = [
  { sqlite: "TEXT", postgres: "text", why: "the same thing" },
  {
    sqlite: "TEXT",
    postgres: "timestamp with time zone",
    why: "instants: SQLite keeps the ISO-8601 UTC text the code writes (it sorts as the instants do), PostgreSQL a timestamptz",
  },
  {
    sqlite: "TEXT",
    postgres: "json",
    why: "documents and value lists: SQLite keeps the JSON text written; PostgreSQL json (not jsonb) keeps that text too, key order included",
  },
  {
    sqlite: "INTEGER",
    postgres: "bigint",
    why: "epoch milliseconds, byte sizes, running balances and row sequences can pass 2^31; SQLite's INTEGER is 64-bit anyway",
  },
  {
    sqlite: "INTEGER",
    postgres: "integer",
    why: "versions, pixel sizes, counts, HTTP status codes and per-render credit amounts, all far below 2^31",
  },
  { sqlite: "INTEGER", postgres: "boolean", why: "SQLite has no boolean type: false and true are 0 and 1" },
  { sqlite: "BLOB", postgres: "bytea", why: "bytes (key hashes, stored responses)" },
  { sqlite: "REAL", postgres: "double precision", why: "both are IEEE 754 doubles" },
];

/** Tables, indexes and triggers kept in one backend on purpose; anything else in one only is drift. */
export const ONE_BACKEND_ONLY: {
  postgres: { tables: Record<string, string>; indexes: Record<string, string> };
  sqlite: { tables: Record<string, string>; indexes: Record<string, string> };
} = {
  postgres: {
    tables: {
      pictor_migrations:
        "the versions migrate() applied, one row each; SQLite keeps its version in PRAGMA user_version",
    },
    indexes: {
      renders_account_queued:
        "serves the count of an account's queued renders at each acceptance (postgres/render-store.ts chargeAndRecord), the pg-boss job's fairness priority; the embedded queue keeps that count in memory and SQLite runs no such query, so the index would only cost a write per render",
    },
  },
  sqlite: { tables: {}, indexes: {} },
};

/**
 * Not compared between the backends, with the reason. pg-boss's own tables live in PostgreSQL's
 * `pgboss` schema, which postgresSchema() does not read: pg-boss creates and migrates them itself.
 */
export const NOT_COMPARED = {
  tableOptions: "STRICT and WITHOUT ROWID are SQLite storage choices with no PostgreSQL counterpart",
  columnOrder: "ALTER TABLE appends columns, and the two backends added some in a different order",
  triggerNamesAndBodies:
    "a SQLite trigger fires on one event and runs SQL; a PostgreSQL one may fire on several and runs a plpgsql function. Compared: which table, when, on which event",
  primaryKeyNullability:
    "SQLite lets a rowid table's non-INTEGER PRIMARY KEY hold NULL (a compatibility quirk it keeps); no code writes one, PostgreSQL forbids it. A primary key column counts as NOT NULL on both sides",
};

const CAST = /::(timestamp with time zone|double precision|character varying|[a-z_][a-z0-9_]*)(\[\])?/g;

/**
 * An expression (CHECK, index predicate, default) in a form both backends print alike. PostgreSQL
 * reprints what it stores: it casts literals ('x'::text), spells IN as = ANY (ARRAY[...]) and wraps
 * every comparison in parentheses. So: lower case, casts dropped, ANY folded back to IN, then
 * parentheses and spaces dropped. A boolean column (INTEGER in SQLite) is compared as 0 and 1:
 * PostgreSQL's `NOT c` and `c = false` read as `c=0`, `false`/`true` defaults as 0 and 1.
 */
export function comparableExpression(expression: string, booleanColumns: readonly string[] = []): string {
  let e = expression
    .toLowerCase()
    .replace(CAST, "")
    .replace(/=\s*any\s*\(\s*array\s*\[([^\]]*)\]\s*\)/g, "in ($1)");
  for (const c of booleanColumns) {
    e = e
      .replace(new RegExp(`\\bnot\\s*\\(?\\s*${c}\\s*\\)?`, "g"), `${c} = 0`)
      .replace(new RegExp(`\\b${c}\\s*=\\s*false\\b`, "g"), `${c} = 0`)
      .replace(new RegExp(`\\b${c}\\s*=\\s*true\\b`, "g"), `${c} = 1`);
  }
  e = e.replace(/^false$/, "0").replace(/^true$/, "1");
  return e.replace(/[()\s]/g, "");
}

const pairOf = (s: ColumnShape, p: ColumnShape) =>
  TYPE_MAPPING.find((m) => m.sqlite === s.type.toUpperCase() && m.postgres === p.type);

/**
 * Every difference between a SQLite and a PostgreSQL schema beyond the declared mapping and the
 * allow-lists above, one line each; an empty list means the two agree.
 */
export function backendDrift(sqlite: SchemaShape, postgres: SchemaShape): string[] {
  const drift: string[] = [];
  const names = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();

  for (const name of names(sqlite.tables, postgres.tables)) {
    const s = sqlite.tables[name];
    const p = postgres.tables[name];
    if (!s || !p) {
      const only = s ? "sqlite" : "postgres";
      if (!(name in ONE_BACKEND_ONLY[only].tables)) drift.push(`table ${name}: only in ${only}`);
      continue;
    }
    drift.push(...tableDrift(name, s, p));
  }

  for (const name of names(sqlite.indexes, postgres.indexes)) {
    const s = sqlite.indexes[name];
    const p = postgres.indexes[name];
    if (!s || !p) {
      const only = s ? "sqlite" : "postgres";
      if (!(name in ONE_BACKEND_ONLY[only].indexes)) drift.push(`index ${name}: only in ${only}`);
      continue;
    }
    const comparable = (i: IndexShape) => {
      const bools = booleanColumns(postgres.tables[i.table]);
      const where = i.where === null ? null : comparableExpression(i.where, bools);
      return JSON.stringify([i.table, i.columns, i.unique, where]);
    };
    if (comparable(s) !== comparable(p)) {
      const show = (i: IndexShape) =>
        `${i.unique ? "UNIQUE " : ""}on ${i.table}(${i.columns.join(",")})${i.where === null ? "" : ` WHERE ${i.where}`}`;
      drift.push(`index ${name}: sqlite ${show(s)} vs postgres ${show(p)}`);
    }
  }

  const events = (schema: SchemaShape) =>
    Object.values(schema.triggers)
      .flatMap((t) => t.events.map((e) => `${t.table} ${t.timing} ${e}`))
      .sort();
  const se = events(sqlite);
  const pe = events(postgres);
  for (const e of se.filter((x) => !pe.includes(x))) drift.push(`trigger on ${e}: only in sqlite`);
  for (const e of pe.filter((x) => !se.includes(x))) drift.push(`trigger on ${e}: only in postgres`);
  return drift;
}

function booleanColumns(table: TableShape | undefined): string[] {
  return Object.entries(table?.columns ?? {})
    .filter(([, c]) => c.type === "boolean")
    .map(([name]) => name);
}

function tableDrift(name: string, s: TableShape, p: TableShape): string[] {
  const drift: string[] = [];
  const bools = booleanColumns(p);
  for (const column of [...new Set([...Object.keys(s.columns), ...Object.keys(p.columns)])].sort()) {
    const sc = s.columns[column];
    const pc = p.columns[column];
    const at = `table ${name}: column ${column}`;
    if (!sc || !pc) {
      drift.push(`${at}: only in ${sc ? "sqlite" : "postgres"}`);
      continue;
    }
    if (!pairOf(sc, pc)) {
      drift.push(`${at}: sqlite ${sc.type} vs postgres ${pc.type} is not a declared pair (TYPE_MAPPING)`);
    }
    const notNull = (c: ColumnShape, t: TableShape) => c.notNull || t.primaryKey.includes(column);
    if (notNull(sc, s) !== notNull(pc, p)) {
      drift.push(`${at}: ${notNull(sc, s) ? "NOT NULL in sqlite only" : "NOT NULL in postgres only"}`);
    }
    const dflt = (c: ColumnShape) => (c.default === null ? null : comparableExpression(c.default, bools));
    if (dflt(sc) !== dflt(pc)) {
      drift.push(`${at}: default ${sc.default} in sqlite vs ${pc.default} in postgres`);
    }
    if (sc.generated !== pc.generated) {
      drift.push(`${at}: numbered by the database in ${sc.generated ? "sqlite" : "postgres"} only`);
    }
  }
  const same = (what: string, a: readonly string[], b: readonly string[]) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      drift.push(`table ${name}: ${what} sqlite ${JSON.stringify(a)} vs postgres ${JSON.stringify(b)}`);
    }
  };
  same("primary key", s.primaryKey, p.primaryKey);
  same("unique constraints", s.unique, p.unique);
  same("foreign keys", s.foreignKeys, p.foreignKeys);
  const checks = (t: TableShape) => t.checks.map((c) => comparableExpression(c, bools)).sort();
  same("checks", checks(s), checks(p));
  return drift;
}
