import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";

export interface Measurement {
  name: string;
  iterations: number;
  medianMs: number;
  p95Ms: number;
  /** 1000 / median: one render at a time on one core. */
  rendersPerSecond: number;
  /**
   * Median CPU milliseconds of the whole process per call (user + system, every thread: a native
   * renderer's worker threads and libuv's encoder threads count too). On a shared machine this moves
   * less than wall time, which includes waiting for a core.
   */
  medianCpuMs: number;
}

export interface Candidate {
  name: string;
  run: () => unknown;
}

export interface RoundOptions {
  warmupRounds?: number;
  minRounds?: number;
  maxRounds?: number;
  /** Keep going until this much time is spent (and at least minRounds). */
  targetMs?: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/**
 * Times the candidates round-robin, one call at a time: each round runs every candidate once. On a
 * shared machine the load drifts over a run; interleaving lets the drift hit the engine and the
 * baselines alike, so their ratios stay meaningful when the absolute figures wobble. Warm-up rounds
 * come first (JIT, caches, lazy wasm pages). Medians, not means: a GC pause must not move the figure.
 */
export async function measureInterleaved(
  candidates: Candidate[],
  { warmupRounds = 3, minRounds = 20, maxRounds = 400, targetMs = 10_000 }: RoundOptions = {},
): Promise<Measurement[]> {
  for (let i = 0; i < warmupRounds; i++) for (const c of candidates) await c.run();
  const times = candidates.map((): number[] => []);
  const cpuTimes = candidates.map((): number[] => []);
  const started = performance.now();
  let rounds = 0;
  while (rounds < maxRounds && (rounds < minRounds || performance.now() - started < targetMs)) {
    for (const [i, c] of candidates.entries()) {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      await c.run();
      times[i]?.push(performance.now() - t0);
      const cpu = process.cpuUsage(cpu0);
      cpuTimes[i]?.push((cpu.user + cpu.system) / 1000);
    }
    rounds++;
  }
  return candidates.map((c, i) => {
    const sorted = (times[i] ?? []).sort((a, b) => a - b);
    const medianMs = percentile(sorted, 50);
    const sortedCpu = (cpuTimes[i] ?? []).sort((a, b) => a - b);
    return {
      name: c.name,
      medianCpuMs: percentile(sortedCpu, 50),
      iterations: sorted.length,
      medianMs,
      p95Ms: percentile(sorted, 95),
      rendersPerSecond: 1000 / medianMs,
    };
  });
}

export interface MeasureOptions {
  warmup?: number;
  minIterations?: number;
  maxIterations?: number;
  /** Keep iterating until this much time is spent (then stop at minIterations at least). */
  targetMs?: number;
}

/** One candidate alone: warm-up calls, then iterations until the count and the time budget are met. */
export async function measure(
  name: string,
  fn: () => unknown,
  { warmup = 5, minIterations = 20, maxIterations = 400, targetMs = 3000 }: MeasureOptions = {},
): Promise<Measurement> {
  const [m] = await measureInterleaved([{ name, run: fn }], {
    warmupRounds: warmup,
    minRounds: minIterations,
    maxRounds: maxIterations,
    targetMs,
  });
  return m as Measurement;
}

/**
 * The 1-minute load average before measuring, warned about above 1: figures are only comparable on
 * an otherwise idle machine, so each result file records how busy it was.
 */
export function loadAverageAtStart(): number {
  const load = loadavg()[0] ?? 0;
  if (load > 1) {
    console.error(`warning: 1-minute load average is ${load.toFixed(2)}; other work will skew these figures`);
  }
  return load;
}
