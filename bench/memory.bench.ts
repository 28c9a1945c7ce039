/**
 * `npm run bench:memory`: resident memory of a real `pictor serve` (embedded default, a fresh data
 * directory with the reference scene published) at the moments issue 24 names:
 *   - idle, before any render, with 1 and with 2 render threads (their difference is one render
 *     thread; the rest of the 1-thread figure is the main thread);
 *   - with 1 render thread: after 1,000 reference renders (wait mode, 2 clients), right after 50
 *     scale-4 renders, a minute later, and after a CJK + emoji render (headline in Chinese, Japanese,
 *     Korean and emoji).
 * Each figure is compared with the stored baseline (bench/baselines/memory-baseline.json, measured by
 * this same script on the commit before issue 24's work), as MB and as a ratio. Writes
 * bench/results/memory.json. `BENCH_MEMORY_WAIT_S` shortens the minute (for a quick look);
 * `BENCH_MEMORY_WRITE_BASELINE=1` stores this run as the baseline.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { loadAverageAtStart } from "./lib/measure.ts";
import { type PictorServe, seedDataDir, startPictorServe } from "./lib/pictor-serve.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import { readReferenceScene } from "./lib/reference-scene.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const BASELINE_FILE = join(benchDir, "baselines", "memory-baseline.json");
const WAIT_S = Number(process.env.BENCH_MEMORY_WAIT_S ?? 60);
const loadAtStart = loadAverageAtStart();

const document = await readReferenceScene();
const sample = document.sample ?? {};
const photo = await makeReferencePhoto();
const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const CJK_EMOJI_HEADLINE = "你好，世界 こんにちは 안녕하세요 🎉😀👍🏽";

function body(assetId: string, extra: { scale?: number; headline?: string } = {}): string {
  return JSON.stringify({
    template: document.key,
    modifications: [
      { name: "headline", text: extra.headline ?? sample.headline ?? "" },
      { name: "body", text: sample.body ?? "" },
      { name: "photo", image_url: assetId },
      { name: "ink", color: sample.ink ?? "#FFFFFF" },
    ],
    wait: true,
    ...(extra.scale ? { scale: extra.scale } : {}),
  });
}

/**
 * RSS once it has settled: sampled every 500 ms, at least `atLeastMs` (default 4 s), until three
 * seconds move it by less than 1 MB (render threads finish starting after the server listens).
 */
async function settledResident(server: PictorServe, atLeastMs = 4_000, maxMs = 30_000): Promise<number> {
  const samples: number[] = [];
  const start = Date.now();
  while (Date.now() < start + maxMs) {
    samples.push(server.residentBytes() ?? Number.NaN);
    const last = samples.slice(-7);
    if (Date.now() >= start + atLeastMs && samples.length >= 7 && Math.max(...last) - Math.min(...last) < MB)
      break;
    await sleep(500);
  }
  return (samples.at(-1) ?? Number.NaN) / MB;
}

/**
 * Idle is read 15 s after start: a render thread gives the C heap's free pages back once it has been
 * idle for 10 s (render-node trim-native-heap.ts), set-up included, and a server rests there.
 */
const IDLE_AFTER_START_MS = 15_000;

async function renders(server: PictorServe, apiKey: string, amount: number, payload: string): Promise<void> {
  const result = await autocannon({
    url: `${server.url}/v1/renders`,
    method: "POST",
    connections: 2,
    amount,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: payload,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors of ${amount} renders`);
  }
}

async function serve(workers: number, env: Record<string, string> = {}) {
  const seeded = await seedDataDir("pictor-bench-memory-", document, photo);
  const server = await startPictorServe(seeded.dir, { PICTOR_WORKERS: String(workers), ...env });
  return {
    ...seeded,
    server,
    async stop() {
      await server.stop();
      rmSync(seeded.dir, { recursive: true, force: true });
    },
  };
}

/**
 * Idle resident memory of a fresh server with `workers` threads, the median of `IDLE_STARTS` starts:
 * one start's figure moved by up to 30 MB between runs, and the main thread's figure is a difference
 * of two of them.
 */
const IDLE_STARTS = Number(process.env.BENCH_MEMORY_IDLE_STARTS ?? 3);
async function idleResident(workers: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < IDLE_STARTS; i++) {
    const started = await serve(workers);
    samples.push(await settledResident(started.server, IDLE_AFTER_START_MS));
    await started.stop();
  }
  samples.sort((a, b) => a - b);
  console.error(`  ${workers} thread(s): ${samples.map((mb) => mb.toFixed(0)).join(", ")} MiB`);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

console.error("idle, 2 render threads");
const idle2 = await idleResident(2);
console.error("idle, 1 render thread");
const idle1 = await idleResident(1);

const one = await serve(1);
await settledResident(one.server);
console.error("1,000 reference renders");
await renders(one.server, one.apiKey, 1000, body(one.assetId));
const after1000 = await settledResident(one.server);
console.error("50 scale-4 renders");
await renders(one.server, one.apiKey, 50, body(one.assetId, { scale: 4 }));
const afterScale4 = one.server.residentBytes() ?? Number.NaN;
console.error(`waiting ${WAIT_S} s`);
await sleep(WAIT_S * 1000);
const afterScale4Wait = await settledResident(one.server);
console.error("CJK + emoji render");
await renders(one.server, one.apiKey, 20, body(one.assetId, { headline: CJK_EMOJI_HEADLINE }));
const afterCjk = await settledResident(one.server);
await one.stop();

const perThreadIdle = idle2 - idle1;
const mainIdle = idle1 - perThreadIdle;
const figures = {
  idle1ThreadMiB: idle1,
  idle2ThreadsMiB: idle2,
  perRenderThreadIdleMiB: perThreadIdle,
  mainThreadIdleMiB: mainIdle,
  after1000ReferenceMiB: after1000,
  perRenderThreadAfter1000MiB: after1000 - mainIdle,
  rightAfter50Scale4MiB: afterScale4 / MB,
  minuteAfter50Scale4MiB: afterScale4Wait,
  minuteAfterScale4OverIdle: afterScale4Wait / idle1,
  afterCjkEmojiMiB: afterCjk,
};

let baseline: { commit: string; figures: typeof figures } | null = null;
try {
  baseline = JSON.parse(readFileSync(BASELINE_FILE, "utf8"));
} catch {}

const rows = Object.entries(figures).map(([key, value]) => {
  const before = baseline?.figures[key as keyof typeof figures];
  const ratio = key.endsWith("OverIdle") || before === undefined ? null : value / before;
  return { key, value, before: before ?? null, ratio };
});
console.error("\nresident memory (MiB)            now     baseline   ratio");
for (const r of rows) {
  console.error(
    `  ${r.key.padEnd(30)} ${r.value.toFixed(r.key.endsWith("OverIdle") ? 2 : 0).padStart(6)}   ${
      r.before === null ? "     -" : r.before.toFixed(r.key.endsWith("OverIdle") ? 2 : 0).padStart(6)
    }   ${r.ratio === null ? "-" : r.ratio.toFixed(2)}`,
  );
}
const targets = {
  idlePerThreadAtMost150: perThreadIdle <= 150,
  mainThreadAtMost120: mainIdle <= 120,
  perThreadAfter1000AtMost200: figures.perRenderThreadAfter1000MiB <= 200,
  backWithin10PercentOfIdleAfterAMinute: afterScale4Wait <= idle1 * 1.1,
};
console.error(`targets: ${JSON.stringify(targets)}`);

const commit = (() => {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: benchDir, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
})();
const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model, totalMemMiB: totalmem() / MB },
  loadAverage: { atStart: loadAtStart, atEnd: loadavg()[0] },
  waitSeconds: WAIT_S,
  figures,
  baseline: baseline ? { commit: baseline.commit, figures: baseline.figures } : null,
  targets,
};
await mkdir(join(benchDir, "results"), { recursive: true });
await writeFile(join(benchDir, "results", "memory.json"), `${JSON.stringify(result, null, 2)}\n`);
if (process.env.BENCH_MEMORY_WRITE_BASELINE === "1") {
  await writeFile(
    BASELINE_FILE,
    `${JSON.stringify({ commit: process.env.BENCH_MEMORY_COMMIT ?? commit, date: result.date, figures }, null, 2)}\n`,
  );
  console.error(`baseline written to ${BASELINE_FILE}`);
}
