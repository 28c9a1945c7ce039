/**
 * `npm run bench:fairness`: one account floods, another keeps its latency (issue 21), in both modes.
 * Account B sends BENCH_FAIRNESS_SAMPLES wait-mode renders one after another on an idle server (its
 * unloaded latency), then account A queues BENCH_FAIRNESS_FLOOD renders (batches of 1,000) and B sends
 * the same again while A's backlog is queued. Reported: B's p50 / p99 unloaded and under the flood,
 * and the p99 ratio (target: at most 2), with how much of A's backlog was still queued when B finished
 * (the flood really was there). Embedded: one `pictor serve` (render threads = cores). Scaled: one
 * `--role api` and one `--role worker` process (render threads = cores) on PostgreSQL + S3 (Swift).
 * Each mode runs with the default settings (a spare render thread while several accounts render) and
 * with PICTOR_SPARE_THREAD=false (every thread to whoever is queued: the setting before it). 300
 * samples by default, so the p99 is the 4th slowest, not the single slowest of a noisy machine.
 *
 * The hostile phase (issue 33), in each mode on a server of its own with the default settings, in
 * BENCH_FAIRNESS_ROUNDS rounds (default 3; the servers left to go idle between them): B's unloaded
 * latency again, then B sends the same renders while a hostile account sends the hostile tenant's mix (packages/server/test/hostile/hostile-mix.ts: 8000x8000 frames with shadows, PDFs of
 * 20 pages, downloads that never read, editor images at the 16-megapixel cap, distinct on-demand
 * URLs) until B is done. Reported: B's p50 / p99 unloaded and under the mix and the p99 ratio
 * (target: at most 3) of the round with the median ratio, each round's ratio, B's renders that
 * failed (counted, not fatal), the server's peak RSS over all rounds (sampled every 100 ms; scaled: each process) against its memory
 * budget, what the mix's requests got, and the servers' CPU per second of each phase by thread
 * (main thread, render threads, libvips, V8's helper threads, the rest: where the mix's cost lands,
 * a split that holds on a busy machine where the latencies do not). Those servers run with a memory budget
 * (BENCH_FAIRNESS_MEMORY_BUDGET MiB, default max(1024, 120 + 452 per core): 1024 on 2 cores, as in
 * the hostile-tenant test, so the same renders are refused as too large), as the limits of the mix
 * come from it.
 *
 * BENCH_FAIRNESS_ONLY=embedded (or scaled, or embedded-spare, scaled-spare, embedded-none,
 * scaled-none, embedded-hostile, scaled-hostile, hostile; comma-separated) runs those alone, for a
 * quick look. Same scene as bench:http. Writes bench/results/fairness.json.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readServeConfig } from "../packages/server/src/main/config.ts";
import { openDataDir } from "../packages/server/src/main/data-dir.ts";
import { openScaledState } from "../packages/server/src/main/scaled-state.ts";
import {
  type HostileAccount,
  type HostileReport,
  makeNoisePhoto,
  runHostileMix,
  sampleResidentMemory,
  seedHostileAccount,
} from "../packages/server/test/hostile/hostile-mix.ts";
import { freePort } from "../packages/server/test/scale/processes.ts";
import { startPostgres } from "../packages/server/test/support/postgres.ts";
import { s3Env, startS3 } from "../packages/server/test/support/s3.ts";
import { seedBenchAccount, startPictorServe } from "./lib/pictor-serve.ts";
import { threadGroupsCpuMs, treeCpuMs } from "./lib/proc-stats.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import { numberedModifications, readReferenceScene } from "./lib/reference-scene.ts";
import { spawnRole, stopChild } from "./lib/role-process.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const SAMPLES = Number(process.env.BENCH_FAIRNESS_SAMPLES ?? 300);
const FLOOD = Number(process.env.BENCH_FAIRNESS_FLOOD ?? 5000);
const cores = availableParallelism();
/** The hostile phase's servers: MiB, so that each render thread's share is 452 MiB as in the test. */
const MEMORY_BUDGET_MIB = Number(
  process.env.BENCH_FAIRNESS_MEMORY_BUDGET ?? Math.max(1024, 120 + 452 * cores),
);
const MiB = 1024 * 1024;

const document = await readReferenceScene();
const photo = await makeReferencePhoto();
const modifications = (assetId: string, i: number) => numberedModifications(document, assetId, i);

interface Account {
  apiKey: string;
  assetId: string;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

/**
 * B's renders one after another, their latencies sorted. A render that does not complete ends the
 * run, unless `failures` is given: then it is counted there by its answer, and B goes on.
 */
async function latencies(
  url: string,
  b: Account,
  count: number,
  failures?: Record<string, number>,
): Promise<number[]> {
  const headers = { authorization: `Bearer ${b.apiKey}`, "content-type": "application/json" };
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/renders`, {
      method: "POST",
      headers,
      body: JSON.stringify({ template: document.key, modifications: modifications(b.assetId, i), wait: 60 }),
    });
    const body = (await res.json()) as { status?: string; error?: { code?: string } };
    if (res.status !== 200 || body.status !== "completed") {
      if (!failures) throw new Error(`B's render: ${res.status} ${JSON.stringify(body)}`);
      const outcome = `${res.status} ${body.error?.code ?? body.status ?? ""}`.trim();
      failures[outcome] = (failures[outcome] ?? 0) + 1;
      continue;
    }
    out.push(performance.now() - t0);
  }
  return out.sort((x, y) => x - y);
}

// Renders of B before anything is measured. Ten left the first scaled run's "unloaded" figures two
// to five times those of the second (a fresh Swift and PostgreSQL warming up), which flattered its ratio.
const WARMUP = Number(process.env.BENCH_FAIRNESS_WARMUP ?? 100);

async function measure(url: string, a: Account, b: Account) {
  await latencies(url, b, WARMUP);
  const unloaded = await latencies(url, b, SAMPLES);
  const headers = { authorization: `Bearer ${a.apiKey}`, "content-type": "application/json" };
  const batches: string[] = [];
  for (let sent = 0; sent < FLOOD; sent += 1000) {
    const rows = Math.min(1000, FLOOD - sent);
    const res = await fetch(`${url}/v1/renders/batch`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        renders: Array.from({ length: rows }, (_, i) => ({
          template: document.key,
          modifications: modifications(a.assetId, sent + i),
        })),
      }),
    });
    const body = (await res.json()) as { batch_id: string };
    if (res.status !== 202) throw new Error(`flood refused: ${res.status} ${JSON.stringify(body)}`);
    batches.push(body.batch_id);
  }
  const aDone = async () => {
    let done = 0;
    for (const id of batches) {
      const res = await fetch(`${url}/v1/batches/${id}`, { headers });
      const body = (await res.json()) as { counts: { completed: number; failed: number } };
      done += body.counts.completed + body.counts.failed;
    }
    return done;
  };
  const aDoneBefore = await aDone();
  const loaded = await latencies(url, b, SAMPLES);
  const aDoneAfter = await aDone();
  return {
    unloaded: summary(unloaded),
    flooded: summary(loaded),
    p99Ratio: quantile(loaded, 0.99) / quantile(unloaded, 0.99),
    floodRendersDoneWhenBStarted: aDoneBefore,
    floodRendersDoneWhenBFinished: aDoneAfter,
  };
}

type Result = Awaited<ReturnType<typeof measure>>;

const summary = (s: number[]) => ({ p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s.at(-1) ?? 0 });

/**
 * Rounds of the hostile phase on one server (BENCH_FAIRNESS_ROUNDS, default 3): a figure of one
 * round moves with whatever else the machine runs meanwhile (a p99 of 300 samples is their 3rd
 * slowest), so each round measures B alone and then under the mix back to back, and the ratio
 * reported is the median of the rounds' ratios.
 */
const ROUNDS = Number(process.env.BENCH_FAIRNESS_ROUNDS ?? 3);

/**
 * Waits until the servers are idle (under 5 % of a core over a second, at most 120 s): the renders
 * the mix left queued (on-demand URLs whose callers were dropped still render and enter the cache)
 * must not run into the next round's "alone" phase.
 */
async function quiesce(pids: number[]): Promise<number> {
  const started = performance.now();
  const total = () => pids.reduce((sum, pid) => sum + treeCpuMs([pid]), 0);
  for (let before = total(); performance.now() - started < 120_000; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = total();
    if (now - before < 50) break;
    before = now;
  }
  return Math.round(performance.now() - started);
}

/**
 * ROUNDS times: B alone, then B while `h` sends the hostile mix (until B's last render); the memory of
 * `pids` sampled meanwhile, the servers idle again between rounds.
 */
async function measureHostile(
  url: string,
  b: Account,
  h: HostileAccount,
  pids: { name: string; pid: number }[],
) {
  await latencies(url, b, WARMUP);
  const cpu = cpuReader(pids);
  const memory = sampleResidentMemory(
    pids.map((p) => p.pid),
    100,
  );
  const rounds: HostileRound[] = [];
  const failures: Record<string, number> = {};
  let report: HostileReport = { parts: {}, sent: 0 };
  let peakRss: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const idleMs = round === 0 ? 0 : await quiesce(pids.map((p) => p.pid));
      cpu.phase();
      const unloaded = await latencies(url, b, SAMPLES, failures);
      const cpuAlone = cpu.phase();
      const stop = new AbortController();
      const mix = runHostileMix({ url, account: h, signal: stop.signal });
      let loaded: number[];
      try {
        loaded = await latencies(url, b, SAMPLES, failures);
      } finally {
        stop.abort();
        report = mergeReports(report, await mix);
      }
      const cpuHostile = cpu.phase();
      rounds.push({
        unloaded: summary(unloaded),
        hostile: summary(loaded),
        p99Ratio: quantile(loaded, 0.99) / quantile(unloaded, 0.99),
        cpuMsPerSecond: { alone: cpuAlone, hostile: cpuHostile },
        idleWaitMs: idleMs,
        loadAverage: loadavg()[0] ?? 0,
      });
      console.error(
        `  round ${round + 1}: B p99 ${quantile(unloaded, 0.99).toFixed(1)} ms alone, ${quantile(loaded, 0.99).toFixed(1)} ms under the mix (${(rounds.at(-1)?.p99Ratio ?? 0).toFixed(2)}x), load ${loadavg()[0]?.toFixed(1)}`,
      );
    }
  } finally {
    peakRss = (await memory.stop()).peaks;
  }
  const ratios = rounds.map((r) => r.p99Ratio).sort((x, y) => x - y);
  const median = rounds.find(
    (r) => r.p99Ratio === ratios[Math.floor((ratios.length - 1) / 2)],
  ) as HostileRound;
  return {
    rounds,
    /** The round whose ratio is the median of the rounds'. */
    unloaded: median.unloaded,
    hostile: median.hostile,
    cpuMsPerSecond: median.cpuMsPerSecond,
    p99Ratio: median.p99Ratio,
    bFailures: failures,
    memoryBudgetMiB: MEMORY_BUDGET_MIB,
    peakRssMiB: Object.fromEntries(pids.map((p, i) => [p.name, Math.round((peakRss[i] ?? 0) / MiB)])),
    hostileRequests: report.sent,
    hostileAnswers: report.parts,
  };
}
interface HostileRound {
  unloaded: ReturnType<typeof summary>;
  hostile: ReturnType<typeof summary>;
  p99Ratio: number;
  cpuMsPerSecond: {
    alone: Record<string, Record<string, number>>;
    hostile: Record<string, Record<string, number>>;
  };
  /** How long the servers took to go idle after the round before. */
  idleWaitMs: number;
  loadAverage: number;
}

/** Two reports of the mix summed. */
function mergeReports(a: HostileReport, b: HostileReport): HostileReport {
  const parts: HostileReport["parts"] = structuredClone(a.parts);
  for (const [part, tally] of Object.entries(b.parts)) {
    const into = parts[part] ?? {};
    for (const [outcome, n] of Object.entries(tally)) into[outcome] = (into[outcome] ?? 0) + n;
    parts[part] = into;
  }
  return { parts, sent: a.sent + b.sent };
}

type HostileResult = Awaited<ReturnType<typeof measureHostile>>;

/**
 * CPU of the servers' threads by who spent it (proc-stats.ts: main thread, render threads, libvips,
 * V8's helpers, the rest), per second of each phase: the split does not depend on how busy the
 * machine is, as the latencies do. `phase()` returns the figures since the last call.
 */
function cpuReader(pids: { name: string; pid: number }[]) {
  const read = () => pids.map((p) => threadGroupsCpuMs(p.pid));
  let last = read();
  let lastAt = performance.now();
  return {
    phase(): Record<string, Record<string, number>> {
      const now = read();
      const at = performance.now();
      const seconds = (at - lastAt) / 1000;
      const out = Object.fromEntries(
        pids.map((p, i) => [
          p.name,
          Object.fromEntries(
            Object.entries(now[i] ?? {}).map(([group, ms]) => [
              group,
              Math.round((ms - (last[i]?.[group] ?? 0)) / seconds),
            ]),
          ),
        ]),
      );
      last = now;
      lastAt = at;
      return out;
    },
  };
}

/** Settings of one run: the defaults, or the spare thread off. */
interface Setting {
  spareThread: boolean;
}
const settingEnv = (s: Setting) => ({ PICTOR_SPARE_THREAD: String(s.spareThread) });
const settingName = (s: Setting) => (s.spareThread ? "default (spare thread)" : "PICTOR_SPARE_THREAD=false");

/** Embedded: two accounts in a fresh data dir, through the same stores the server uses. */
async function runEmbedded(setting: Setting): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), "pictor-bench-fairness-"));
  const data = openDataDir(dir, { examplesDir: join(dir, "none") });
  const a = await seedBenchAccount(data, document, photo);
  const b = await seedBenchAccount(data, document, photo);
  data.close();
  const server = await startPictorServe(dir, settingEnv(setting));
  console.error(`embedded (${cores} render threads), ${settingName(setting)}...`);
  try {
    return await measure(server.url, a, b);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Embedded, the hostile phase: B and the hostile account in a fresh data dir, the memory budget set. */
async function runEmbeddedHostile(): Promise<HostileResult> {
  const dir = mkdtempSync(join(tmpdir(), "pictor-bench-fairness-"));
  const data = openDataDir(dir, { examplesDir: join(dir, "none") });
  const b = await seedBenchAccount(data, document, photo);
  const h = await seedHostileAccount(data, await makeNoisePhoto());
  data.close();
  const server = await startPictorServe(dir, { PICTOR_MEMORY_BUDGET: String(MEMORY_BUDGET_MIB) });
  console.error(`embedded (${cores} render threads), memory budget ${MEMORY_BUDGET_MIB} MiB, hostile mix...`);
  try {
    return await measureHostile(server.url, b, h, [
      { name: "pictor serve", pid: server.child.pid as number },
    ]);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ONLY = process.env.BENCH_FAIRNESS_ONLY?.split(",").map((c) => c.trim());
const runs = (mode: "embedded" | "scaled", s: Setting) =>
  !ONLY || ONLY.includes(mode) || ONLY.includes(`${mode}-${s.spareThread ? "spare" : "none"}`);
const SETTINGS: Setting[] = [{ spareThread: true }, { spareThread: false }];
const runsHostile = (mode: "embedded" | "scaled") =>
  !ONLY || ONLY.includes(mode) || ONLY.includes("hostile") || ONLY.includes(`${mode}-hostile`);

const scaledWanted = SETTINGS.some((s) => runs("scaled", s)) || runsHostile("scaled");
const cluster = scaledWanted ? await startPostgres("bench:fairness") : null;
const s3 = scaledWanted ? await startS3("bench:fairness") : null;
if (scaledWanted && (!cluster || !s3))
  throw new Error("bench:fairness needs PostgreSQL and Swift (scripts/ci-services.sh)");

/**
 * Scaled: a fresh database, one API and one worker process (render threads = cores); the flood
 * phases with `setting`, or the hostile phase (default settings, the memory budget set).
 */
async function runScaled(setting: Setting): Promise<Result>;
async function runScaled(setting: "hostile"): Promise<HostileResult>;
async function runScaled(setting: Setting | "hostile"): Promise<Result | HostileResult> {
  if (!cluster || !s3) throw new Error("unreachable");
  const hostile = setting === "hostile";
  const pgDir = mkdtempSync(join(tmpdir(), "pictor-bench-fairness-pg-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: await cluster.newDatabase(),
    ...s3Env(s3, `fairness-${hostile ? "hostile" : setting.spareThread ? "spare" : "none"}/`),
    PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
    PICTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PICTOR_LOG_LEVEL: "warn",
    PICTOR_RATE_LIMIT_BURST: "100000000",
    PICTOR_RATE_LIMIT_PER_SECOND: "1000000",
    PICTOR_EXAMPLES_DIR: join(pgDir, "none"),
    ...(hostile ? { PICTOR_MEMORY_BUDGET: String(MEMORY_BUDGET_MIB) } : settingEnv(setting)),
  };
  const api = await spawnRole("api", ["--port", String(port)], env);
  const running = [api];
  try {
    const config = readServeConfig({ role: "api", data: pgDir }, env);
    if (config.backend.state !== "postgres") throw new Error("expected PostgreSQL");
    const state = await openScaledState(config, config.backend);
    const a = hostile ? null : await seedBenchAccount(state, document, photo);
    const b = await seedBenchAccount(state, document, photo);
    const h = hostile ? await seedHostileAccount(state, await makeNoisePhoto()) : null;
    await state.close();
    const worker = await spawnRole("worker", ["--workers", String(cores)], env);
    running.push(worker);
    const url = `http://127.0.0.1:${port}`;
    if (h) {
      console.error(
        `PostgreSQL + S3, 1 API + 1 worker process (${cores} render threads), memory budget ${MEMORY_BUDGET_MIB} MiB each, hostile mix...`,
      );
      return await measureHostile(url, b, h, [
        { name: "API process", pid: api.pid as number },
        { name: "worker process", pid: worker.pid as number },
      ]);
    }
    console.error(
      `PostgreSQL + S3, 1 API + 1 worker process (${cores} render threads), ${settingName(setting as Setting)}...`,
    );
    return await measure(url, a as Account, b);
  } finally {
    await Promise.all(running.map(stopChild));
    rmSync(pgDir, { recursive: true, force: true });
  }
}

// The defaults (B's renders find the spare thread free), then without the spare thread (B waits for
// one of A's renders in flight to end).
const results: Record<string, Result> = {};
const hostile: Record<string, HostileResult> = {};
/** The results so far, written after each mode: a mode that fails keeps those before it. */
const writeResults = () =>
  writeFile(
    join(benchDir, "results/fairness.json"),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpu: cpus()[0]?.model ?? "unknown",
        cores,
        loadAverageAtEnd: loadavg()[0],
        samples: SAMPLES,
        flood: FLOOD,
        results,
        hostileMemoryBudgetMiB: MEMORY_BUDGET_MIB,
        hostileRounds: ROUNDS,
        hostile,
      },
      null,
      2,
    )}\n`,
  );
try {
  for (const setting of SETTINGS.filter((s) => runs("embedded", s))) {
    results[`embedded (${cores} render threads), ${settingName(setting)}`] = await runEmbedded(setting);
    await writeResults();
  }
  if (runsHostile("embedded")) {
    hostile[`embedded (${cores} render threads)`] = await runEmbeddedHostile();
    await writeResults();
  }
  for (const setting of SETTINGS.filter((s) => runs("scaled", s))) {
    results[`PostgreSQL + S3, 1 API + 1 worker (${cores} threads), ${settingName(setting)}`] =
      await runScaled(setting);
    await writeResults();
  }
  if (runsHostile("scaled"))
    hostile[`PostgreSQL + S3, 1 API + 1 worker (${cores} threads)`] = await runScaled("hostile");
} finally {
  await Promise.all([cluster?.stop(), s3?.stop()]);
}

const ms = (n: number) => n.toFixed(1);
const row = (name: string, m: Result) =>
  `| ${name} | ${ms(m.unloaded.p50)} / ${ms(m.unloaded.p99)} | ${ms(m.flooded.p50)} / ${ms(m.flooded.p99)} / ${ms(m.flooded.max)} | ${m.p99Ratio.toFixed(2)} | ${FLOOD - m.floodRendersDoneWhenBFinished} of ${FLOOD} |`;
/** The mix's answers summed over its parts: 2xx, refused (4xx, 5xx), dropped when B was done. */
function answered(h: HostileResult): string {
  let ok = 0;
  let refused = 0;
  let dropped = 0;
  for (const tally of Object.values(h.hostileAnswers))
    for (const [outcome, n] of Object.entries(tally)) {
      if (/^2/.test(outcome)) ok += n;
      else if (/^[45]/.test(outcome)) refused += n;
      else dropped += n;
    }
  return `${ok} / ${refused} / ${dropped}`;
}
const peaks = (h: HostileResult) =>
  Object.entries(h.peakRssMiB)
    .map(([name, mib]) => `${name} ${mib}`)
    .join(", ");
const failed = (h: HostileResult) =>
  Object.entries(h.bFailures)
    .map(([outcome, n]) => `${n}× ${outcome}`)
    .join(", ") || "none";
const hostileRow = (name: string, h: HostileResult) =>
  `| ${name} | ${ms(h.unloaded.p50)} / ${ms(h.unloaded.p99)} | ${ms(h.hostile.p50)} / ${ms(h.hostile.p99)} / ${ms(h.hostile.max)} | ${h.p99Ratio.toFixed(2)} (rounds: ${h.rounds.map((r) => r.p99Ratio.toFixed(2)).join(", ")}) | ${failed(h)} | ${peaks(h)} of ${h.memoryBudgetMiB} (+20 %: ${Math.round(h.memoryBudgetMiB * 1.2)}) | ${answered(h)} |`;
console.log(
  [
    `${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}), shared with other work (load average ${loadavg()[0]?.toFixed(1)} at the end).`,
    ...(Object.keys(results).length === 0
      ? []
      : [
          `Account B: ${SAMPLES} wait-mode renders one after another, idle, then while account A has ${FLOOD} renders queued.`,
          "",
          `| mode | B unloaded p50 / p99 ms | B during A's flood p50 / p99 / max ms | p99 ratio (target ≤ 2) | A's renders still queued when B finished |`,
          "|---|---|---|---|---|",
          ...Object.entries(results).map(([name, m]) => row(name, m)),
        ]),
    ...(Object.keys(hostile).length === 0
      ? []
      : [
          "",
          `Hostile tenant: ${ROUNDS} rounds of account B's ${SAMPLES} wait-mode renders one after another, idle, then while a hostile account sends the hostile mix (servers with a memory budget of ${MEMORY_BUDGET_MIB} MiB); the round with the median p99 ratio shown.`,
          "",
          "| mode | B unloaded p50 / p99 ms | B during the hostile mix p50 / p99 / max ms | p99 ratio (target ≤ 3) | B's renders failed | peak RSS MiB | mix answered 2xx / refused / dropped at the end |",
          "|---|---|---|---|---|---|---|",
          ...Object.entries(hostile).map(([name, h]) => hostileRow(name, h)),
          "",
          "Server CPU by thread, ms per second of each phase (alone → during the mix), the median round:",
          ...Object.entries(hostile).flatMap(([name, h]) =>
            Object.keys(h.cpuMsPerSecond.alone).map(
              (process) =>
                `- ${name}, ${process}: ${Object.keys(h.cpuMsPerSecond.alone[process] ?? {})
                  .map(
                    (group) =>
                      `${group} ${h.cpuMsPerSecond.alone[process]?.[group]} → ${h.cpuMsPerSecond.hostile[process]?.[group]}`,
                  )
                  .join(", ")}`,
            ),
          ),
        ]),
  ].join("\n"),
);
await writeResults();
