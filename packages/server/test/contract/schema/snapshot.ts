import type { DatabaseSync } from "node:sqlite";
import type pg from "pg";

/**
 * A database's schema read back from its catalog, in one shape for both backends: what the drift tests
 * compare (a migrated database against a fresh one of the same backend, and SQLite against PostgreSQL
 * through the declared mapping in parity.ts). Types, defaults and expressions are each backend's own
 * spelling, with runs of whitespace collapsed; parity.ts translates between the two.
 */
export interface ColumnShape {
  /** The declared type (SQLite) or information_schema's data_type, with a size if it has one (PostgreSQL). */
  type: string;
  notNull: boolean;
  default: string | null;
  /** The database numbers new rows itself: SQLite's INTEGER PRIMARY KEY, PostgreSQL's identity. */
  generated: boolean;
}

export interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string[];
  /** One entry per UNIQUE constraint: its columns in order, comma-separated; sorted. */
  unique: string[];
  /** `columns -> table(columns) on delete <action>`, sorted. */
  foreignKeys: string[];
  /** CHECK expressions as written (SQLite) or as pg_get_constraintdef prints them; sorted. */
  checks: string[];
  /** Storage options with no counterpart in the other backend (SQLite: STRICT, WITHOUT ROWID). */
  options: string[];
}

export interface IndexShape {
  table: string;
  columns: string[];
  unique: boolean;
  /** The partial index's predicate, or null. */
  where: string | null;
}

export interface TriggerShape {
  table: string;
  timing: string;
  events: string[];
  /** What it runs: the trigger program (SQLite) or its function's source (PostgreSQL). */
  body: string;
}

export interface SchemaShape {
  tables: Record<string, TableShape>;
  /** Indexes made by CREATE INDEX; those behind a primary key or UNIQUE constraint are in `tables`. */
  indexes: Record<string, IndexShape>;
  triggers: Record<string, TriggerShape>;
}

/** Collapses whitespace, and drops it around brackets and commas: `t (a,  b)` reads as `t(a,b)`. */
export const squash = (text: string): string =>
  text
    .replace(/\s+/g, " ")
    .replace(/\s*([(),[\]])\s*/g, "$1")
    .trim();

/** The text after a top-level keyword outside string literals, e.g. an index's WHERE. */
function afterKeyword(sql: string, keyword: string): string | null {
  const re = new RegExp(`\\b${keyword}\\b`, "i");
  const code = blankStrings(sql);
  const match = re.exec(code);
  return match ? sql.slice(match.index + match[0].length) : null;
}

/** The same text with the contents of '...' literals and -- comments replaced by spaces (offsets kept). */
function blankStrings(sql: string): string {
  let out = "";
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i] as string;
    if (ch === "'") {
      const end = sql.indexOf("'", i + 1);
      const stop = end === -1 ? sql.length : end;
      out += `'${" ".repeat(stop - i - 1)}'`;
      i = stop;
    } else if (ch === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += " ".repeat(stop - i);
      i = stop - 1;
    } else out += ch;
  }
  return out;
}

/** Every CHECK (...) expression of a CREATE TABLE statement, column and table constraints alike. */
function checksOf(createTable: string): string[] {
  const code = blankStrings(createTable);
  const checks: string[] = [];
  const re = /\bCHECK\s*\(/gi;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const open = m.index + m[0].length - 1;
    let depth = 0;
    for (let i = open; i < code.length; i++) {
      if (code[i] === "(") depth++;
      else if (code[i] === ")" && --depth === 0) {
        checks.push(squash(createTable.slice(open + 1, i)));
        break;
      }
    }
  }
  return checks.sort();
}

export function sqliteSchema(db: DatabaseSync): SchemaShape {
  const schema: SchemaShape = { tables: {}, indexes: {}, triggers: {} };
  const master = db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    .all()
    .map((r) => ({ type: String(r.type), name: String(r.name), table: String(r.tbl_name), sql: r.sql }));
  const tableList = new Map(
    db
      .prepare("PRAGMA main.table_list")
      .all()
      .map((r) => [String(r.name), { strict: Number(r.strict) === 1, withoutRowid: Number(r.wr) === 1 }]),
  );
  for (const t of master.filter((m) => m.type === "table")) {
    const info = db.prepare(`PRAGMA table_info("${t.name}")`).all();
    const pk = info
      .filter((c) => Number(c.pk) > 0)
      .sort((a, b) => Number(a.pk) - Number(b.pk))
      .map((c) => String(c.name));
    const flags = tableList.get(t.name);
    const columns: Record<string, ColumnShape> = {};
    for (const c of info) {
      const type = String(c.type);
      columns[String(c.name)] = {
        type,
        notNull: Number(c.notnull) === 1,
        default: c.dflt_value === null ? null : squash(String(c.dflt_value)),
        // The rowid alias: an INTEGER PRIMARY KEY of a rowid table numbers new rows itself.
        generated:
          pk.length === 1 && pk[0] === c.name && type.toUpperCase() === "INTEGER" && !flags?.withoutRowid,
      };
    }
    const unique = db
      .prepare(`PRAGMA index_list("${t.name}")`)
      .all()
      .filter((i) => i.origin === "u")
      .map((i) =>
        db
          .prepare(`PRAGMA index_info("${String(i.name)}")`)
          .all()
          .map((c) => String(c.name))
          .join(","),
      )
      .sort();
    const fkRows = db.prepare(`PRAGMA foreign_key_list("${t.name}")`).all();
    const foreignKeys = [...new Set(fkRows.map((f) => Number(f.id)))]
      .map((id) => {
        const parts = fkRows.filter((f) => Number(f.id) === id).sort((a, b) => Number(a.seq) - Number(b.seq));
        const first = parts[0] as Record<string, unknown>;
        return `${parts.map((p) => p.from).join(",")} -> ${String(first.table)}(${parts.map((p) => p.to).join(",")}) on delete ${String(first.on_delete).toLowerCase()}`;
      })
      .sort();
    schema.tables[t.name] = {
      columns,
      primaryKey: pk,
      unique,
      foreignKeys,
      checks: checksOf(String(t.sql)),
      options: [...(flags?.strict ? ["STRICT"] : []), ...(flags?.withoutRowid ? ["WITHOUT ROWID"] : [])],
    };
  }
  for (const i of master.filter((m) => m.type === "index" && m.sql !== null)) {
    const listed = db
      .prepare(`PRAGMA index_list("${i.table}")`)
      .all()
      .find((r) => r.name === i.name);
    const where = afterKeyword(String(i.sql), "WHERE");
    schema.indexes[i.name] = {
      table: i.table,
      columns: db
        .prepare(`PRAGMA index_info("${i.name}")`)
        .all()
        .map((c) => String(c.name)),
      unique: Number(listed?.unique) === 1,
      where: where === null ? null : squash(where),
    };
  }
  for (const tr of master.filter((m) => m.type === "trigger")) {
    const sql = String(tr.sql);
    const head = /\b(BEFORE|AFTER|INSTEAD\s+OF)\s+(INSERT|UPDATE|DELETE)\b/i.exec(blankStrings(sql));
    schema.triggers[tr.name] = {
      table: tr.table,
      timing: (head?.[1] ?? "?").toUpperCase(),
      events: [(head?.[2] ?? "?").toUpperCase()],
      body: squash(afterKeyword(sql, "BEGIN") ?? sql).replace(/\s*END;?$/i, ""),
    };
  }
  return schema;
}

/** The `public` schema of a PostgreSQL database (pg-boss keeps its own tables in the `pgboss` schema). */
export async function postgresSchema(db: pg.Pool | pg.Client): Promise<SchemaShape> {
  const schema: SchemaShape = { tables: {}, indexes: {}, triggers: {} };
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  for (const { table_name } of tables.rows) {
    schema.tables[table_name] = {
      columns: {},
      primaryKey: [],
      unique: [],
      foreignKeys: [],
      checks: [],
      options: [],
    };
  }
  const columns = await db.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
    length: number | null;
    precision: number | null;
    scale: number | null;
  }>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity,
       character_maximum_length AS length,
       CASE WHEN data_type = 'numeric' THEN numeric_precision END AS precision,
       CASE WHEN data_type = 'numeric' THEN numeric_scale END AS scale
     FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  for (const c of columns.rows) {
    const table = schema.tables[c.table_name];
    if (!table) continue; // a view's columns
    table.columns[c.column_name] = {
      // varchar(n) and numeric(p,s) keep their size: a change of it is a change of type.
      type:
        c.length !== null
          ? `${c.data_type}(${c.length})`
          : c.precision !== null
            ? `${c.data_type}(${c.precision},${c.scale})`
            : c.data_type,
      notNull: c.is_nullable === "NO",
      default: c.column_default === null ? null : squash(c.column_default),
      generated: c.is_identity === "YES" || /^nextval\(/.test(c.column_default ?? ""),
    };
  }
  const constraints = await db.query<{
    table_name: string;
    contype: string;
    def: string;
    columns: string[];
    ref_table: string | null;
    ref_columns: string[];
    on_delete: string;
  }>(
    `SELECT rel.relname::text AS table_name, con.contype::text AS contype, pg_get_constraintdef(con.oid) AS def,
       ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(num, ord)
             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.ord) AS columns,
       ref.relname::text AS ref_table,
       ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(num, ord)
             JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.ord) AS ref_columns,
       CASE con.confdeltype WHEN 'a' THEN 'no action' WHEN 'r' THEN 'restrict' WHEN 'c' THEN 'cascade'
         WHEN 'n' THEN 'set null' WHEN 'd' THEN 'set default' ELSE '' END AS on_delete
     FROM pg_constraint con
     JOIN pg_class rel ON rel.oid = con.conrelid
     JOIN pg_namespace n ON n.oid = rel.relnamespace
     LEFT JOIN pg_class ref ON ref.oid = con.confrelid
     WHERE n.nspname = 'public'`,
  );
  for (const c of constraints.rows) {
    const table = schema.tables[c.table_name];
    if (!table) continue;
    if (c.contype === "p") table.primaryKey = c.columns;
    else if (c.contype === "u") table.unique.push(c.columns.join(","));
    else if (c.contype === "f")
      table.foreignKeys.push(
        `${c.columns.join(",")} -> ${c.ref_table}(${c.ref_columns.join(",")}) on delete ${c.on_delete}`,
      );
    else if (c.contype === "c") table.checks.push(squash(c.def.replace(/^CHECK\s*/i, "")));
  }
  for (const table of Object.values(schema.tables)) {
    table.unique.sort();
    table.foreignKeys.sort();
    table.checks.sort();
  }
  // pg_indexes names every index; pg_index says which back a constraint (those are in `tables`).
  const indexes = await db.query<{
    indexname: string;
    tablename: string;
    unique: boolean;
    columns: string[];
    predicate: string | null;
  }>(
    `SELECT pi.indexname::text AS indexname, pi.tablename::text AS tablename, i.indisunique AS unique,
       ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(num, ord)
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.num ORDER BY k.ord) AS columns,
       pg_get_expr(i.indpred, i.indrelid) AS predicate
     FROM pg_indexes pi
     JOIN pg_class c ON c.relname = pi.indexname
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = pi.schemaname
     JOIN pg_index i ON i.indexrelid = c.oid
     WHERE pi.schemaname = 'public'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = c.oid)`,
  );
  for (const i of indexes.rows) {
    schema.indexes[i.indexname] = {
      table: i.tablename,
      columns: i.columns,
      unique: i.unique,
      where: i.predicate === null ? null : squash(i.predicate),
    };
  }
  const triggers = await db.query<{
    trigger_name: string;
    table_name: string;
    timing: string;
    events: string[];
    body: string;
  }>(
    `SELECT t.trigger_name::text, t.event_object_table::text AS table_name, t.action_timing::text AS timing,
       array_agg(t.event_manipulation::text ORDER BY t.event_manipulation) AS events,
       (SELECT p.prosrc FROM pg_trigger tg JOIN pg_proc p ON p.oid = tg.tgfoid
        JOIN pg_class c ON c.oid = tg.tgrelid
        WHERE tg.tgname = t.trigger_name AND c.relname = t.event_object_table) AS body
     FROM information_schema.triggers t
     WHERE t.trigger_schema = 'public'
     GROUP BY t.trigger_name, t.event_object_table, t.action_timing`,
  );
  for (const t of triggers.rows) {
    schema.triggers[t.trigger_name] = {
      table: t.table_name,
      timing: t.timing,
      events: t.events,
      body: squash(t.body),
    };
  }
  return schema;
}

/**
 * The schema as sorted lines, one fact each, every line naming its table: what tests compare, so a
 * failure's diff says which table, column or index differs.
 */
export function describeSchema(schema: SchemaShape): string[] {
  const lines: string[] = [];
  for (const [name, t] of Object.entries(schema.tables)) {
    for (const [column, c] of Object.entries(t.columns)) {
      const notNull = c.notNull ? " NOT NULL" : "";
      const dflt = c.default === null ? "" : ` DEFAULT ${c.default}`;
      lines.push(
        `table ${name}: column ${column} ${c.type}${notNull}${dflt}${c.generated ? " GENERATED" : ""}`,
      );
    }
    lines.push(`table ${name}: primary key (${t.primaryKey.join(",")})`);
    for (const u of t.unique) lines.push(`table ${name}: unique (${u})`);
    for (const f of t.foreignKeys) lines.push(`table ${name}: foreign key ${f}`);
    for (const c of t.checks) lines.push(`table ${name}: check ${c}`);
    for (const o of t.options) lines.push(`table ${name}: ${o}`);
  }
  for (const [name, i] of Object.entries(schema.indexes)) {
    const where = i.where === null ? "" : ` WHERE ${i.where}`;
    lines.push(`index ${name}: ${i.unique ? "UNIQUE " : ""}on ${i.table}(${i.columns.join(",")})${where}`);
  }
  for (const [name, t] of Object.entries(schema.triggers)) {
    lines.push(`trigger ${name}: ${t.timing} ${t.events.join(" OR ")} ON ${t.table}: ${t.body}`);
  }
  return lines.sort();
}
