import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BACKGROUND_NICE } from "../../src/adapters/queue/thread-priority.ts";
import { RENDER_THREAD_NAME } from "../../src/adapters/queue/worker-pool.ts";
import { testTemplate } from "../api/support.ts";
import { useTempWorkerPool } from "../support/worker-pool.ts";

// Thread ids, nice values and context switches come from /proc: Linux only, as deployed and in CI.
const linux = process.platform === "linux";

/** The nice value in a /proc stat file: "pid (comm) state ..." – field 19, counted after the parenthesis. */
const niceIn = (stat: string) => Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
/**
 * This process's own nice value, which its render threads start at: 0 as a rule, 5 under `nice -n 5`.
 * Only a background thread lowers its priority, to BACKGROUND_NICE, so the normal thread keeps this one.
 */
const OWN_NICE = linux ? niceIn(readFileSync("/proc/self/stat", "utf8")) : 0;

const temp = useTempWorkerPool("pictor-pool-priority-", 2, { backgroundThreads: true });

/**
 * This process's render threads: nice value, and the CPU time each has run for (ns, the first field of
 * schedstat).
 */
function renderThreads(): { tid: string; nice: number; cpuNs: number }[] {
  const task = "/proc/self/task";
  return readdirSync(task)
    .filter((tid) => readFileSync(`${task}/${tid}/comm`, "utf8").trim() === RENDER_THREAD_NAME)
    .map((tid) => ({
      tid,
      nice: niceIn(readFileSync(`${task}/${tid}/stat`, "utf8")),
      cpuNs: Number(readFileSync(`${task}/${tid}/schedstat`, "utf8").split(" ")[0]),
    }));
}

const task = (i: number, interactive: boolean, accountId = "acct_priority") => ({
  accountId,
  documentKey: "tpl_priority@1",
  document: testTemplate() as never,
  frame: "main",
  values: { title: `priority ${i}` },
  scale: 1,
  format: "png" as const,
  quality: null,
  outputKey: `renders/priority-${i}.png`,
  interactive,
});

const RENDERS = 24;

/**
 * Runs RENDERS tasks one after another and returns the CPU time each render thread used meanwhile:
 * the thread that drew them used milliseconds a render, an idle one next to nothing (GC and timer
 * wake-ups). Time on the CPU, not the thread's voluntary context switches: on a loaded machine a
 * niced thread often found its next task already posted and never slept between renders.
 */
async function cpuDuring(
  interactive: boolean,
  accountId?: string,
  renders = RENDERS,
): Promise<{ background: number; normal: number }> {
  const before = renderThreads();
  for (let i = 0; i < renders; i++)
    expect((await temp.pool.run(task(i, interactive, accountId))).ok).toBe(true);
  const after = renderThreads();
  const delta = (nice: number) => {
    const was = before.find((t) => t.nice === nice);
    const now = after.find((t) => t.tid === was?.tid);
    return (now?.cpuNs ?? 0) - (was?.cpuNs ?? 0);
  };
  return { background: delta(BACKGROUND_NICE), normal: delta(OWN_NICE) };
}

// A process already at BACKGROUND_NICE or nicer has no lower priority to give its background threads,
// and the two threads could not be told apart.
describe.runIf(linux && OWN_NICE < BACKGROUND_NICE)(
  "render threads at background priority (fairness between accounts)",
  () => {
    it("runs every thread but the last at the background nice value, the last at the process's own", () => {
      expect(
        renderThreads()
          .map((t) => t.nice)
          .sort((a, b) => a - b),
      ).toEqual([OWN_NICE, BACKGROUND_NICE]);
    });

    it("sends renders nobody waits for to the background thread, and waited-for ones to the normal thread", async () => {
      // At least 0.1 ms of CPU a render: the thread that drew them.
      const background = await cpuDuring(false);
      expect(background.background).toBeGreaterThan(RENDERS * 100_000);
      expect(background.normal).toBeLessThan(background.background / 4);
      const interactive = await cpuDuring(true);
      expect(interactive.normal).toBeGreaterThan(RENDERS * 100_000);
      expect(interactive.background).toBeLessThan(interactive.normal / 4);
    });

    it("while several accounts render, sends the one that rendered the most to the background thread, waited for or not", async () => {
      // acct_priority has rendered 48 tasks just now; another account renders a few.
      const light = await cpuDuring(false, "acct_light", 4);
      expect(light.normal).toBeGreaterThan(4 * 100_000);
      expect(light.background).toBeLessThan(light.normal / 4);
      // The heavy account's renders go to the background thread although someone waits for them.
      const heavy = await cpuDuring(true, "acct_priority");
      expect(heavy.background).toBeGreaterThan(RENDERS * 100_000);
      expect(heavy.normal).toBeLessThan(heavy.background / 4);
    });

    it("keeps an account's tasks to the threads it holds, all but one, while another account renders", async () => {
      // Another account rendered just now; acct_priority, by far the heaviest, sends 12 at once: its
      // first goes to the background thread, and the rest wait for it. Least busy first, all but the
      // two the background thread holds went to the idle normal thread.
      await cpuDuring(false, "acct_light", 2);
      const before = renderThreads();
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) => temp.pool.run(task(100 + i, true, "acct_priority"))),
      );
      expect(outcomes.every((o) => o.ok)).toBe(true);
      const after = renderThreads();
      const delta = (nice: number) => {
        const was = before.find((t) => t.nice === nice);
        return (after.find((t) => t.tid === was?.tid)?.cpuNs ?? 0) - (was?.cpuNs ?? 0);
      };
      expect(delta(BACKGROUND_NICE)).toBeGreaterThan(12 * 100_000);
      expect(delta(OWN_NICE)).toBeLessThan(delta(BACKGROUND_NICE) / 4);
    });
  },
);
