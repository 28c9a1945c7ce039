import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";
import { afterAll, expect, it, vi } from "vitest";

// A thread that keeps about 30 MiB of small objects: they outlive the young generation and fill the
// old one. It reports how many full (mark-compact) collections it ran meanwhile.
const KEEPER = `
const { PerformanceObserver, constants } = require("node:perf_hooks");
const { parentPort } = require("node:worker_threads");
let major = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
});
observer.observe({ entryTypes: ["gc"] });
const kept = [];
for (let i = 0; i < 150000; i++) kept.push({ i, s: "item " + i, a: [i, i + 1, i + 2] });
// A collection whose marking began during the loop finishes in a later task, and GC entries are
// delivered after it: there is nothing to await for that, so the thread gives it a moment.
setTimeout(() => {
  observer.disconnect();
  parentPort.postMessage({ major, kept: kept.length });
}, 50);
`;

function fullCollectionsOfAKeeperThread(): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(KEEPER, { eval: true });
    worker.once("message", ({ major }: { major: number }) => {
      resolve(major);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

async function freshModule() {
  vi.resetModules();
  return import("../../src/adapters/queue/render-thread-heap.ts");
}

afterAll(async () => {
  // V8's flags are the process's: leave the server's setting for whatever else this process runs.
  const { RENDER_THREAD_INITIAL_OLD_SPACE_MB } = await freshModule();
  setFlagsFromString(`--initial-old-space-size=${RENDER_THREAD_INITIAL_OLD_SPACE_MB}`);
});

it("threads started after sizeRenderThreadHeaps grow their old generation to 64 MiB before a full collection", async () => {
  const { sizeRenderThreadHeaps, RENDER_THREAD_INITIAL_OLD_SPACE_MB } = await freshModule();
  expect(RENDER_THREAD_INITIAL_OLD_SPACE_MB).toBe(64);

  // The control: with V8's own initial size, filling the old generation runs a full collection.
  setFlagsFromString("--initial-old-space-size=0");
  expect(await fullCollectionsOfAKeeperThread()).toBeGreaterThanOrEqual(1);

  sizeRenderThreadHeaps([]);
  expect(await fullCollectionsOfAKeeperThread()).toBe(0);
});

it("an --initial-old-space-size the operator passed to node is left alone", async () => {
  const { sizeRenderThreadHeaps } = await freshModule();
  setFlagsFromString("--initial-old-space-size=0");
  sizeRenderThreadHeaps(["--max-semi-space-size=4", "--initial-old-space-size=0"]);
  expect(await fullCollectionsOfAKeeperThread()).toBeGreaterThanOrEqual(1);
});
