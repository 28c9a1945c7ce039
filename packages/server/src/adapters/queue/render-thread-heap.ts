import { setFlagsFromString } from "node:v8";

/**
 * The old generation a render thread's V8 heap starts with, in MiB (V8's own default is derived
 * from the heap's small live size, here about 22 MiB).
 *
 * Why: a render thread keeps about 22 MiB live and promotes a few MiB a second of short-lived
 * render data. V8 set its next full collection at about 1.5x the live size, which left a slack no
 * larger than the young generation, so under a flood the thread started an incremental mark-compact
 * about every 350 ms that freed 3 MiB each time. Those collections' helper threads took the cores
 * from the other render thread's PNG encode, and a waiting caller's p99 doubled (bench:fairness,
 * embedded: 1.75-2.46x its unloaded p99). Starting the old generation at 64 MiB leaves room for
 * about 40 MiB of promotions between collections: the ratio fell to 1.28-1.54 (docs/deploy.md,
 * "Fairness between accounts"). 48 MiB gave 1.44-1.89.
 */
export const RENDER_THREAD_INITIAL_OLD_SPACE_MB = 64;

let applied = false;

/**
 * Sets V8's initial old-space size for isolates created from now on. V8 reads its flags when an
 * isolate is made, and a worker thread's isolate is made when the thread starts, so render threads
 * get it while the main thread, configured at start, keeps its own smaller heap (its idle memory is
 * budgeted; docs/deploy.md, "Memory"). Node's Worker `resourceLimits` has no initial size, hence the
 * flag. A size the operator gave in the launcher's flags (`PICTOR_NODE_OPTIONS`) wins.
 */
export function sizeRenderThreadHeaps(execArgv: readonly string[] = process.execArgv): void {
  if (applied) return;
  applied = true;
  if (execArgv.some((arg) => arg.startsWith("--initial-old-space-size"))) return;
  setFlagsFromString(`--initial-old-space-size=${RENDER_THREAD_INITIAL_OLD_SPACE_MB}`);
}
