import type { DatabaseSync } from "node:sqlite";
import type { Clock } from "../../ports/clock.ts";
import type { BacklogStats } from "../../ports/metrics.ts";
import type { ReadinessCheck } from "../../ports/readiness.ts";
import { sql } from "./statements.ts";

// `status IN (…) AND status = 'queued'`: the first term names the partial index renders_pending, so
// SQLite reads the pending rows only, never the whole table.
const QUEUED = `SELECT count(*) AS n FROM renders WHERE status IN ('queued', 'rendering') AND status = 'queued'`;
const OLDEST = `SELECT created_at FROM renders WHERE status IN ('queued', 'rendering') AND status = 'queued' ORDER BY seq LIMIT 1`;
const PENDING = `SELECT count(*) AS n FROM webhook_events WHERE state = 'pending'`;

/** The queue and the outbox of the embedded default, counted in its database for metrics. */
export function sqliteBacklogStats(db: DatabaseSync, clock: Clock): BacklogStats {
  return {
    async queued() {
      const count = Number((sql(db, QUEUED).get() as { n: number }).n);
      const oldest = sql(db, OLDEST).get() as { created_at: string } | undefined;
      const age = oldest ? (clock.now().getTime() - Date.parse(oldest.created_at)) / 1000 : 0;
      return { count, oldestAgeSeconds: Math.max(0, age) };
    },
    async outboxPending() {
      return Number((sql(db, PENDING).get() as { n: number }).n);
    },
  };
}

/** The database answers a query (it is a file of this process: only a broken disk says no). */
export function sqliteReadiness(db: DatabaseSync): ReadinessCheck {
  return {
    name: "database",
    async check() {
      sql(db, "SELECT 1").get();
    },
  };
}
