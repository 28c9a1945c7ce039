import type { EndedRender } from "../ports/metrics.ts";

/** What the operator's page shows: the last hour's renders and what is waiting now. */
export interface OperatorSummary {
  window_minutes: number;
  /** Renders ended in each minute of the window, oldest minute first (the last is the current one). */
  renders_per_minute: number[];
  completed: number;
  failed: number;
  /** Failed renders by error code, most frequent first. */
  failures: { code: string; count: number }[];
  /** From acceptance to end, over the window's completed renders; null when there were none. */
  duration_seconds: { p50: number; p95: number } | null;
  queue: { depth: number; oldest_age_seconds: number };
  webhook_backlog: number;
  /** Fewer renders were read than ended (the window holds more than the page reads). */
  truncated: boolean;
}

/** Summarises the renders ended in the `windowMinutes` before `now` (epoch ms). */
export function summariseRenders(
  ended: readonly EndedRender[],
  now: number,
  windowMinutes: number,
  read: { limit: number },
  backlog: { queued: { count: number; oldestAgeSeconds: number }; outboxPending: number },
): OperatorSummary {
  const perMinute = new Array<number>(windowMinutes).fill(0);
  const since = now - windowMinutes * 60_000;
  const failures = new Map<string, number>();
  const durations: number[] = [];
  let completed = 0;
  let failed = 0;
  for (const render of ended) {
    if (render.completedAt < since || render.completedAt > now) continue;
    const minute = Math.min(windowMinutes - 1, Math.floor((render.completedAt - since) / 60_000));
    perMinute[minute] = (perMinute[minute] ?? 0) + 1;
    if (render.status === "completed") {
      completed++;
      durations.push(Math.max(0, render.completedAt - render.createdAt) / 1000);
    } else {
      failed++;
      const code = render.errorCode ?? "unknown";
      failures.set(code, (failures.get(code) ?? 0) + 1);
    }
  }
  durations.sort((a, b) => a - b);
  return {
    window_minutes: windowMinutes,
    renders_per_minute: perMinute,
    completed,
    failed,
    failures: [...failures].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count),
    duration_seconds:
      durations.length === 0 ? null : { p50: quantile(durations, 0.5), p95: quantile(durations, 0.95) },
    queue: { depth: backlog.queued.count, oldest_age_seconds: Math.round(backlog.queued.oldestAgeSeconds) },
    webhook_backlog: backlog.outboxPending,
    truncated: ended.length >= read.limit,
  };
}

/** The nearest-rank quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const rank = Math.max(0, Math.ceil(q * sorted.length) - 1);
  return Math.round((sorted[rank] as number) * 1000) / 1000;
}
