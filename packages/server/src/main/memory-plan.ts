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
/**
 * What a render thread holds between renders, its caches aside: 87-129 MiB after 1,000 reference
 * renders (docs/deploy.md, "Memory"). A render's own peak (the cost model's estimate) comes on top.
 */
export const RENDER_THREAD_BASELINE_MIB = 130;
/** The per-render budget never falls below this, however small the memory budget: a card must render. */
export const MIN_RENDER_MIB = 64;
/**
 * The editor's prepared images (POST /v1/editor/prepare-image): answers being made or sent and not
 * yet read by their clients live in the main thread's memory, a tenth of the budget between 64 and
 * 256 MiB (one full-size answer is 64 MB). Without a share of their own, four unread answers of one
 * account took 256 MB the plan had given the render threads.
 */
const EDITOR_IMAGES_SHARE = 0.1;
const EDITOR_IMAGES_MIN_MIB = 64;
const EDITOR_IMAGES_MAX_MIB = 256;
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
  /** The editor's prepared images the main thread may hold at once, all accounts together, bytes. */
  editorImageBytes: number;
  /**
   * What one render may take at its peak beyond its thread's baseline, bytes: a render whose
   * estimate (the cost model, @pictor/render-node/cost) is larger is refused before it is charged.
   * Each thread's share of the budget, less the thread's baseline and its two caches:
   * (budget - main thread - editor images) / threads - RENDER_THREAD_BASELINE_MIB - prepared-image
   * cache - composed-image cache, at least MIN_RENDER_MIB.
   */
  renderBytes: number;
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
  const editorMiB = clamp(budgetMiB * EDITOR_IMAGES_SHARE, EDITOR_IMAGES_MIN_MIB, EDITOR_IMAGES_MAX_MIB);
  const threadsMiB = budgetMiB - MAIN_THREAD_MIB - editorMiB;
  const perThread = RENDER_THREAD_MIB + LARGE_RENDER_PEAK_MIB / 2;
  const fit = Math.floor(threadsMiB / perThread);
  const threads = clamp(Math.min(requestedThreads, fit), 1, requestedThreads);
  // What each thread has beyond its own working set goes half to its prepared-image cache.
  const spareMiB = threadsMiB / threads - perThread;
  const preparedMiB = clamp(spareMiB / 2, 16, 256);
  const composedMiB = clamp(spareMiB / 8, 8, 32);
  const shareMiB = threadsMiB / threads;
  const renderMiB = Math.max(
    MIN_RENDER_MIB,
    shareMiB - RENDER_THREAD_BASELINE_MIB - preparedMiB - composedMiB,
  );
  return {
    budgetMiB,
    budgetFrom: options.budgetMiB === undefined ? "machine" : "setting",
    machineMiB,
    requestedThreads,
    threads,
    preparedImageBytes: Math.round(preparedMiB * MIB),
    composedImageBytes: Math.round(composedMiB * MIB),
    editorImageBytes: Math.round(editorMiB * MIB),
    renderBytes: Math.floor(renderMiB * MIB),
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
  const render = `up to ${Math.round(plan.renderBytes / MIB)} MiB a render`;
  return `${plan.threads} render thread${plan.threads === 1 ? "" : "s"} (${budget}${fewer}; ${cache}; ${render})`;
}
