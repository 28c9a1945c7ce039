import { readFileSync } from "node:fs";
import { totalmem } from "node:os";

/**
 * How many render threads fit the memory a process may use, and how large each thread's caches are.
 * Figures measured with `npm run bench:memory` (docs/deploy.md, "Memory"): the main thread (HTTP,
 * SQLite, queue) holds about 110 MiB; a render thread about 100 MiB idle and 130-180 MiB working,
 * plus its prepared-image cache, and up to about 150 MiB more while it draws a scale-4 frame (which
 * it gives back once idle). A thread is budgeted at its working figure plus its cache plus that peak.
 */
export const MAIN_THREAD_MIB = 120;
export const RENDER_THREAD_MIB = 180;
export const LARGE_RENDER_PEAK_MIB = 150;
const MIB = 1024 * 1024;

export interface MemoryPlan {
  /** The budget render threads were chosen for, MiB. */
  budgetMiB: number;
  /** Where it came from: the setting, or three quarters of the machine's (or cgroup's) memory. */
  budgetFrom: "setting" | "machine";
  machineMiB: number;
  /** Render threads asked for (--workers, or one per core). */
  requestedThreads: number;
  /** Render threads started: as many of those as fit the budget, at least one. */
  threads: number;
  /** Each thread's prepared-image cache (decoded, fitted pixels), bytes. */
  preparedImageBytes: number;
  /** Each engine's composed-image cache, bytes. */
  composedImageBytes: number;
}

/** The machine's memory, or the cgroup's limit when it is lower (a container). */
export function machineMemoryMiB(): number {
  let bytes = totalmem();
  for (const file of ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]) {
    try {
      const limit = Number(readFileSync(file, "utf8").trim());
      if (Number.isFinite(limit) && limit > 0 && limit < bytes) bytes = limit;
    } catch {}
  }
  return Math.floor(bytes / MIB);
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function planMemory(options: {
  requestedThreads: number;
  budgetMiB: number | undefined;
  machineMiB: number;
}): MemoryPlan {
  const { requestedThreads, machineMiB } = options;
  const budgetMiB = options.budgetMiB ?? Math.floor(machineMiB * 0.75);
  const perThread = RENDER_THREAD_MIB + LARGE_RENDER_PEAK_MIB / 2;
  const fit = Math.floor((budgetMiB - MAIN_THREAD_MIB) / perThread);
  const threads = clamp(Math.min(requestedThreads, fit), 1, requestedThreads);
  // What each thread has beyond its own working set goes half to its prepared-image cache.
  const spareMiB = (budgetMiB - MAIN_THREAD_MIB) / threads - perThread;
  return {
    budgetMiB,
    budgetFrom: options.budgetMiB === undefined ? "machine" : "setting",
    machineMiB,
    requestedThreads,
    threads,
    preparedImageBytes: Math.round(clamp(spareMiB / 2, 16, 256) * MIB),
    composedImageBytes: Math.round(clamp(spareMiB / 8, 8, 32) * MIB),
  };
}

/** One line for the start banner: how many threads, and why. */
export function describePlan(plan: MemoryPlan): string {
  const budget =
    plan.budgetFrom === "setting"
      ? `memory budget ${plan.budgetMiB} MiB`
      : `memory budget ${plan.budgetMiB} MiB, 3/4 of this machine's ${plan.machineMiB} MiB; set --memory-budget or PICTOR_MEMORY_BUDGET`;
  const fewer =
    plan.threads < plan.requestedThreads
      ? `; ${plan.requestedThreads} asked for, ${plan.threads} fit (about ${MAIN_THREAD_MIB} MiB + ${RENDER_THREAD_MIB + LARGE_RENDER_PEAK_MIB / 2} MiB a thread)`
      : "";
  const cache = `prepared-image cache ${Math.round(plan.preparedImageBytes / MIB)} MiB a thread`;
  return `${plan.threads} render thread${plan.threads === 1 ? "" : "s"} (${budget}${fewer}; ${cache})`;
}
