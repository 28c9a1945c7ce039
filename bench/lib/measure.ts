import { performance } from "node:perf_hooks";

export interface Measurement {
  name: string;
  iterations: number;
  medianMs: number;
  p95Ms: number;
  /** 1000 / median: one render at a time on one core. */
  rendersPerSecond: number;
}

export interface MeasureOptions {
  warmup?: number;
  minIterations?: number;
  maxIterations?: number;
  /** Keep iterating until this much time is spent (then stop at minIterations at least). */
  targetMs?: number;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/**
 * Runs `fn` one call at a time: warm-up calls first (JIT, caches, lazy wasm pages), then iterations
 * until both the minimum count and the time budget are reached. Medians, not means: a GC pause
 * should not move the headline figure.
 */
export async function measure(
  name: string,
  fn: () => unknown | Promise<unknown>,
  { warmup = 5, minIterations = 20, maxIterations = 400, targetMs = 3000 }: MeasureOptions = {},
): Promise<Measurement> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  const started = performance.now();
  while (
    times.length < maxIterations &&
    (times.length < minIterations || performance.now() - started < targetMs)
  ) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const medianMs = percentile(times, 50);
  return {
    name,
    iterations: times.length,
    medianMs,
    p95Ms: percentile(times, 95),
    rendersPerSecond: 1000 / medianMs,
  };
}
