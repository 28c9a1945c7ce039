import type pg from "pg";
import type { Clock } from "../../ports/clock.ts";
import type { BacklogStats } from "../../ports/metrics.ts";
import type { ReadinessCheck } from "../../ports/readiness.ts";

// `status IN (…) AND status = 'queued'` reads the partial index renders_pending, not the table.
const QUEUED = `SELECT count(*)::int AS n,
  (SELECT created_at FROM renders WHERE status IN ('queued', 'rendering') AND status = 'queued' ORDER BY seq LIMIT 1) AS oldest
  FROM renders WHERE status IN ('queued', 'rendering') AND status = 'queued'`;
const PENDING = `SELECT count(*)::int AS n FROM webhook_events WHERE state = 'pending'`;

/** The deployment's queue and outbox, counted in PostgreSQL for metrics (every process sees the same). */
export function pgBacklogStats(pool: pg.Pool, clock: Clock): BacklogStats {
  return {
    async queued() {
      const { rows } = await pool.query<{ n: number; oldest: Date | null }>(QUEUED);
      const oldest = rows[0]?.oldest ?? null;
      const age = oldest ? (clock.now().getTime() - oldest.getTime()) / 1000 : 0;
      return { count: rows[0]?.n ?? 0, oldestAgeSeconds: Math.max(0, age) };
    },
    async outboxPending() {
      const { rows } = await pool.query<{ n: number }>(PENDING);
      return rows[0]?.n ?? 0;
    },
  };
}

/** PostgreSQL answers a query on this process's pool. */
export function pgReadiness(pool: pg.Pool): ReadinessCheck {
  return {
    name: "database",
    async check() {
      await pool.query("SELECT 1");
    },
  };
}
