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
 * BENCH_FAIRNESS_ONLY=embedded (or scaled, or embedded-spare, scaled-spare, embedded-none,
 * scaled-none; comma-separated) runs those alone, for a quick look.
 * Same scene as bench:http. Writes bench/results/fairness.json.
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
import { freePort } from "../packages/server/test/scale/processes.ts";
import { startPostgres } from "../packages/server/test/support/postgres.ts";
import { s3Env, startS3 } from "../packages/server/test/support/s3.ts";
import { seedBenchAccount, startPictorServe } from "./lib/pictor-serve.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import { numberedModifications, readReferenceScene } from "./lib/reference-scene.ts";
import { spawnRole, stopChild } from "./lib/role-process.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const SAMPLES = Number(process.env.BENCH_FAIRNESS_SAMPLES ?? 300);
const FLOOD = Number(process.env.BENCH_FAIRNESS_FLOOD ?? 5000);
const cores = availableParallelism();

const document = await readReferenceScene();
const photo = await makeReferencePhoto();
const modifications = (assetId: string, i: number) => numberedModifications(document, assetId, i);

interface Account {
  apiKey: string;
  assetId: string;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

async function latencies(url: string, b: Account, count: number): Promise<number[]> {
  const headers = { authorization: `Bearer ${b.apiKey}`, "content-type": "application/json" };
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/renders`, {
      method: "POST",
      headers,
      body: JSON.stringify({ template: document.key, modifications: modifications(b.assetId, i), wait: 60 }),
    });
    const body = (await res.json()) as { status?: string };
    if (res.status !== 200 || body.status !== "completed")
      throw new Error(`B's render: ${res.status} ${JSON.stringify(body)}`);
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
  const summary = (s: number[]) => ({ p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s.at(-1) ?? 0 });
  return {
    unloaded: summary(unloaded),
    flooded: summary(loaded),
    p99Ratio: quantile(loaded, 0.99) / quantile(unloaded, 0.99),
    floodRendersDoneWhenBStarted: aDoneBefore,
    floodRendersDoneWhenBFinished: aDoneAfter,
  };
}

type Result = Awaited<ReturnType<typeof measure>>;

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

const ONLY = process.env.BENCH_FAIRNESS_ONLY?.split(",").map((c) => c.trim());
const runs = (mode: "embedded" | "scaled", s: Setting) =>
  !ONLY || ONLY.includes(mode) || ONLY.includes(`${mode}-${s.spareThread ? "spare" : "none"}`);
const SETTINGS: Setting[] = [{ spareThread: true }, { spareThread: false }];

const scaledWanted = SETTINGS.some((s) => runs("scaled", s));
const cluster = scaledWanted ? await startPostgres("bench:fairness") : null;
const s3 = scaledWanted ? await startS3("bench:fairness") : null;
if (scaledWanted && (!cluster || !s3))
  throw new Error("bench:fairness needs PostgreSQL and Swift (scripts/ci-services.sh)");

/** Scaled: a fresh database, one API and one worker process (render threads = cores). */
async function runScaled(setting: Setting): Promise<Result> {
  if (!cluster || !s3) throw new Error("unreachable");
  const pgDir = mkdtempSync(join(tmpdir(), "pictor-bench-fairness-pg-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: await cluster.newDatabase(),
    ...s3Env(s3, `fairness-${setting.spareThread ? "spare" : "none"}/`),
    PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
    PICTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PICTOR_LOG_LEVEL: "warn",
    PICTOR_RATE_LIMIT_BURST: "100000000",
    PICTOR_RATE_LIMIT_PER_SECOND: "1000000",
    PICTOR_EXAMPLES_DIR: join(pgDir, "none"),
    ...settingEnv(setting),
  };
  const api = await spawnRole("api", ["--port", String(port)], env);
  const running = [api];
  try {
    const config = readServeConfig({ role: "api", data: pgDir }, env);
    if (config.backend.state !== "postgres") throw new Error("expected PostgreSQL");
    const state = await openScaledState(config, config.backend);
    const a = await seedBenchAccount(state, document, photo);
    const b = await seedBenchAccount(state, document, photo);
    await state.close();
    running.push(await spawnRole("worker", ["--workers", String(cores)], env));
    console.error(
      `PostgreSQL + S3, 1 API + 1 worker process (${cores} render threads), ${settingName(setting)}...`,
    );
    return await measure(`http://127.0.0.1:${port}`, a, b);
  } finally {
    await Promise.all(running.map(stopChild));
    rmSync(pgDir, { recursive: true, force: true });
  }
}

// The defaults (B's renders find the spare thread free), then without the spare thread (B waits for
// one of A's renders in flight to end).
const results: Record<string, Result> = {};
try {
  for (const setting of SETTINGS.filter((s) => runs("embedded", s))) {
    results[`embedded (${cores} render threads), ${settingName(setting)}`] = await runEmbedded(setting);
  }
  for (const setting of SETTINGS.filter((s) => runs("scaled", s))) {
    results[`PostgreSQL + S3, 1 API + 1 worker (${cores} threads), ${settingName(setting)}`] =
      await runScaled(setting);
  }
} finally {
  await Promise.all([cluster?.stop(), s3?.stop()]);
}

const ms = (n: number) => n.toFixed(1);
const row = (name: string, m: Result) =>
  `| ${name} | ${ms(m.unloaded.p50)} / ${ms(m.unloaded.p99)} | ${ms(m.flooded.p50)} / ${ms(m.flooded.p99)} / ${ms(m.flooded.max)} | ${m.p99Ratio.toFixed(2)} | ${FLOOD - m.floodRendersDoneWhenBFinished} of ${FLOOD} |`;
console.log(
  [
    `${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}), shared with other work (load average ${loadavg()[0]?.toFixed(1)} at the end).`,
    `Account B: ${SAMPLES} wait-mode renders one after another, idle, then while account A has ${FLOOD} renders queued.`,
    "",
    `| mode | B unloaded p50 / p99 ms | B during A's flood p50 / p99 / max ms | p99 ratio (target ≤ 2) | A's renders still queued when B finished |`,
    "|---|---|---|---|---|",
    ...Object.entries(results).map(([name, m]) => row(name, m)),
  ].join("\n"),
);
await writeFile(
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
    },
    null,
    2,
  )}\n`,
);
