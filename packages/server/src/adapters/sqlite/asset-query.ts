import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { folderRangeEnd } from "../../domain/assets/folders.ts";
import type { AssetQuery } from "../../ports/asset-library.ts";

export const ASSET_COLUMNS = `a.*, f.sha256 AS file_sha256, f.font_family, f.font_weight, f.font_style`;

/** Counting a filter's matches stops here: choosing a plan costs at most this many index steps per filter. */
const COUNT_CAP = 20_000;
/** Assumed share of rows passing a filter that has no count (content type). */
const UNCOUNTED_SHARE = 0.5;
/** How long an account's asset total is reused as the base of the share estimates. */
const TOTAL_TTL_MS = 30_000;

interface Term {
  table: "asset_tags" | "asset_metadata";
  /** Conditions on the term's columns after account_id, with `#` for the table alias. */
  match: string;
  params: SQLInputValue[];
}

type DriverKind = "term" | "folder" | "folder-range" | "any-tags" | "created";

interface Candidate {
  kind: DriverKind;
  term?: Term;
  /** Matching rows, counted up to COUNT_CAP (the total for `created`). */
  n: number;
  /** Reads rows in page order (created_at DESC, id DESC), so it can stop after limit + 1 matches. */
  ordered: boolean;
}

const totals = new WeakMap<DatabaseSync, Map<string, { n: number; at: number }>>();

function accountTotal(db: DatabaseSync, accountId: string): number {
  let cache = totals.get(db);
  if (!cache) {
    cache = new Map();
    totals.set(db, cache);
  }
  const hit = cache.get(accountId);
  if (hit && Date.now() - hit.at < TOTAL_TTL_MS) return hit.n;
  const n = Number(
    db.prepare("SELECT count(*) AS n FROM assets WHERE account_id = ?").get(accountId)?.n ?? 0,
  );
  cache.set(accountId, { n, at: Date.now() });
  return n;
}

/**
 * Plans one `POST /v1/assets/query` as one statement. Every listing is newest first, and every
 * index the library keeps orders by (created_at, id) after its equality columns, so a plan that
 * DRIVES from one index range reads rows in page order and stops after `limit` + 1 matches; the other
 * filters are point probes on the same keys, made before the asset row is read.
 *
 * The driver is chosen by estimated rows read: each filter's matches are counted (up to COUNT_CAP)
 * and turned into a share of the account's assets; an ordered driver reads
 * min(its matches, (limit + 1) / product of the other filters' shares); an unordered one (a range of
 * folders, tags "any") reads and sorts all of its matches. SQLite's own planner, with no statistics
 * on tag values, sorted every match of the first filter instead: 20-70 ms p50 at 100,000 assets.
 */
export function planAssetQuery(
  db: DatabaseSync,
  accountId: string,
  q: AssetQuery,
): { text: string; params: SQLInputValue[] } {
  const total = Math.max(1, accountTotal(db, accountId));
  const candidates = countCandidates(db, accountId, q);
  const share = (c: Candidate) => Math.min(1, c.n / total);
  const typeShare = q.contentTypes.length > 0 ? UNCOUNTED_SHARE : 1;
  const base: Candidate = { kind: "created", n: total, ordered: true };
  let best = base;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const c of [...candidates, base]) {
    const others = candidates.filter((o) => o !== c).reduce((p, o) => p * share(o), typeShare);
    const cost = c.ordered ? Math.min(c.n, (q.limit + 1) / Math.max(others, 1e-9)) : c.n * 2;
    if (cost < bestCost) {
      best = c;
      bestCost = cost;
    }
  }
  return statement(accountId, q, best, probesFor(candidates, best));
}

/** The statement with each possible driver: every one must return the same page (tests check this). */
export function everyAssetQueryPlan(
  db: DatabaseSync,
  accountId: string,
  q: AssetQuery,
): { driver: string; text: string; params: SQLInputValue[] }[] {
  const candidates = countCandidates(db, accountId, q);
  const base: Candidate = { kind: "created", n: 0, ordered: true };
  return [...candidates, base].map((c) => ({
    driver: c.kind,
    ...statement(accountId, q, c, probesFor(candidates, c)),
  }));
}

/** Probes run most selective first, so most rows are rejected by the first one. */
const probesFor = (candidates: Candidate[], driver: Candidate) =>
  candidates.filter((c) => c !== driver).sort((x, y) => x.n - y.n);

function countCandidates(db: DatabaseSync, accountId: string, q: AssetQuery): Candidate[] {
  const terms: Term[] = [
    ...q.tagsAll.map((tag): Term => ({ table: "asset_tags", match: "#.tag = ?", params: [tag] })),
    ...Object.entries(q.metadata).map(
      ([key, value]): Term => ({
        table: "asset_metadata",
        match: "#.key = ? AND #.value = ?",
        params: [key, value],
      }),
    ),
  ];
  const created = createdConditions(q);
  const count = (sql: string, params: SQLInputValue[]) =>
    Number(db.prepare(`SELECT count(*) AS n FROM (${sql} LIMIT ${COUNT_CAP})`).get(...params)?.n ?? 0);

  const candidates: Candidate[] = [];
  for (const term of terms) {
    const c = created("t.created_at");
    const n = count(
      `SELECT 1 FROM ${term.table} t WHERE t.account_id = ? AND ${alias(term.match, "t")}${c.sql}`,
      [accountId, ...term.params, ...c.params],
    );
    candidates.push({ kind: "term", term, n, ordered: true });
  }
  if (q.folder !== null && !(q.recursive && q.folder === "")) {
    const c = created("created_at");
    candidates.push(
      q.recursive
        ? {
            kind: "folder-range",
            n: count("SELECT 1 FROM assets WHERE account_id = ? AND folder >= ? AND folder < ?", [
              accountId,
              q.folder,
              folderRangeEnd(q.folder),
            ]),
            ordered: false,
          }
        : {
            kind: "folder",
            n: count(`SELECT 1 FROM assets WHERE account_id = ? AND folder = ?${c.sql}`, [
              accountId,
              q.folder,
              ...c.params,
            ]),
            ordered: true,
          },
    );
  }
  if (q.tagsAny.length > 0) {
    const c = created("created_at");
    const n = count(
      `SELECT 1 FROM asset_tags WHERE account_id = ? AND tag IN (${marks(q.tagsAny)})${c.sql}`,
      [accountId, ...q.tagsAny, ...c.params],
    );
    candidates.push({ kind: "any-tags", n, ordered: false });
  }
  return candidates;
}

function statement(
  accountId: string,
  q: AssetQuery,
  driver: Candidate,
  probes: Candidate[],
): { text: string; params: SQLInputValue[] } {
  const where: string[] = [];
  const params: SQLInputValue[] = [];
  let from: string;
  // The driver's (created_at, id): conditions, probes and ORDER BY use its index order, so probes
  // run on index entries before the asset row is read.
  let createdCol = "a.created_at";
  let idCol = "a.id";
  if (driver.kind === "term" && driver.term) {
    from = `${driver.term.table} d`;
    where.push(`d.account_id = ? AND ${alias(driver.term.match, "d")}`);
    params.push(accountId, ...driver.term.params);
    createdCol = "d.created_at";
    idCol = "d.asset_id";
  } else {
    const index = {
      folder: "assets_account_folder_created",
      "folder-range": "assets_account_folder",
      created: "assets_account_created",
      "any-tags": null,
      term: null,
    }[driver.kind];
    from = index ? `assets a INDEXED BY ${index}` : "assets a";
    where.push("a.account_id = ?");
    params.push(accountId);
  }
  const c = createdConditions(q)(createdCol);
  if (c.sql !== "") {
    where.push(c.sql.slice(" AND ".length));
    params.push(...c.params);
  }
  if (q.cursor) {
    where.push(`(${createdCol} < ? OR (${createdCol} = ? AND ${idCol} < ?))`);
    params.push(q.cursor.createdAt, q.cursor.createdAt, q.cursor.id);
  }
  // A term probe is an inner join on the full key (unique: no duplicate rows), which measured ~2x
  // faster than the same lookup as a correlated EXISTS (6.7 vs 10 ms for three filters). CROSS JOIN
  // keeps SQLite from reordering: driver, then probes most selective first, then the asset row.
  const joins: string[] = [];
  const joinParams: SQLInputValue[] = [];
  for (const [i, p] of probes.entries()) {
    if (p.kind === "term" && p.term) {
      joins.push(
        `CROSS JOIN ${p.term.table} p${i} ON p${i}.account_id = ? AND ${alias(p.term.match, `p${i}`)} AND p${i}.created_at = ${createdCol} AND p${i}.asset_id = ${idCol}`,
      );
      joinParams.push(accountId, ...p.term.params);
    } else if (p.kind === "any-tags") {
      where.push(
        `EXISTS (SELECT 1 FROM asset_tags x WHERE x.account_id = ? AND x.tag IN (${marks(q.tagsAny)}) AND x.created_at = ${createdCol} AND x.asset_id = ${idCol})`,
      );
      params.push(accountId, ...q.tagsAny);
    }
  }
  if (driver.kind === "any-tags") {
    where.push(
      `a.id IN (SELECT asset_id FROM asset_tags WHERE account_id = ? AND tag IN (${marks(q.tagsAny)}))`,
    );
    params.push(accountId, ...q.tagsAny);
  }
  if (q.folder !== null) {
    if (q.recursive && q.folder !== "") {
      where.push("a.folder >= ? AND a.folder < ?");
      params.push(q.folder, folderRangeEnd(q.folder));
    } else if (!q.recursive) {
      where.push("a.folder = ?");
      params.push(q.folder);
    }
  }
  if (q.contentTypes.length > 0) {
    where.push(`a.content_type IN (${marks(q.contentTypes)})`);
    params.push(...q.contentTypes);
  }
  params.push(q.limit + 1);
  return {
    text: `SELECT ${ASSET_COLUMNS} FROM ${from} ${joins.join(" ")}
      ${driver.kind === "term" ? "CROSS JOIN assets a ON a.id = d.asset_id" : ""}
      LEFT JOIN asset_files f ON f.asset_id = a.id
      WHERE ${where.join(" AND ")} ORDER BY ${createdCol} DESC, ${idCol} DESC LIMIT ?`,
    params: [...joinParams, ...params],
  };
}

const alias = (match: string, name: string) => match.replaceAll("#", name);
const marks = (values: readonly unknown[]) => values.map(() => "?").join(", ");

/** `created` bounds on a given column as SQL with a leading " AND ". */
function createdConditions(q: AssetQuery) {
  return (column: string): { sql: string; params: SQLInputValue[] } => {
    const ops = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
    let sql = "";
    const params: SQLInputValue[] = [];
    for (const op of ["gt", "gte", "lt", "lte"] as const) {
      const value = q.created[op];
      if (value === undefined) continue;
      sql += ` AND ${column} ${ops[op]} ?`;
      params.push(value);
    }
    return { sql, params };
  };
}
