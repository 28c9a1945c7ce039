import type { DatabaseSync } from "node:sqlite";
import type { EndedRender, EndedRenders } from "../../ports/metrics.ts";
import { sql } from "./statements.ts";

// The latest renders by seq (the primary key, read backwards), so the page never scans the table.
const ENDED = `SELECT status, error_code, created_at, completed_at FROM
  (SELECT status, error_code, created_at, completed_at FROM renders ORDER BY seq DESC LIMIT ?)
  WHERE status IN ('completed', 'failed') AND completed_at >= ?`;

/** Recent render outcomes in the embedded default's database. */
export function sqliteEndedRenders(db: DatabaseSync): EndedRenders {
  return {
    async endedSince(since, limit) {
      const rows = sql(db, ENDED).all(limit, new Date(since).toISOString()) as {
        status: EndedRender["status"];
        error_code: string | null;
        created_at: string;
        completed_at: string;
      }[];
      return rows.map((r) => ({
        status: r.status,
        errorCode: r.error_code,
        createdAt: Date.parse(r.created_at),
        completedAt: Date.parse(r.completed_at),
      }));
    },
  };
}
