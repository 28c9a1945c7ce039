import type pg from "pg";
import type { EndedRender, EndedRenders } from "../../ports/metrics.ts";

// The latest renders by seq (the primary key, read backwards), so the page never scans the table.
const ENDED = `SELECT status, error_code, created_at, completed_at FROM
  (SELECT status, error_code, created_at, completed_at FROM renders ORDER BY seq DESC LIMIT $1) latest
  WHERE status IN ('completed', 'failed') AND completed_at >= $2`;

/** Recent render outcomes of the whole deployment, in PostgreSQL. */
export function pgEndedRenders(pool: pg.Pool): EndedRenders {
  return {
    async endedSince(since, limit) {
      const { rows } = await pool.query<{
        status: EndedRender["status"];
        error_code: string | null;
        created_at: Date;
        completed_at: Date;
      }>(ENDED, [limit, new Date(since)]);
      return rows.map((r) => ({
        status: r.status,
        errorCode: r.error_code,
        createdAt: r.created_at.getTime(),
        completedAt: r.completed_at.getTime(),
      }));
    },
  };
}
