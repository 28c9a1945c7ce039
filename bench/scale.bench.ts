/**
 * `npm run bench:scale`: the same load on the embedded default and on PostgreSQL + S3 (throwaway
 * cluster and OpenStack Swift, test/support/) with 1, 2 and 4 worker processes, in one run.
 * Load per configuration: wait-mode renders from 8 clients for BENCH_DURATION_S seconds (after a warm
 * up), then wait-mode renders sent at a steady BENCH_SCALE_PACE per second for as long (the same load
 * on every configuration), then one batch of BENCH_SCALE_BATCH_ROWS rows until its last render
 * completes (polled).
 * Embedded: one `pictor serve` (render threads = cores). Scaled: one `--role api` process and N
 * `--role worker` processes (1 render thread each, and one row with a single process of `cores`
 * threads). Same scene as bench:http.
 *
 * Per render and role it charges CPU from /proc (utime + stime; PostgreSQL: the postmaster and every
 * backend, also those that exited; Swift: its process tree; embedded: the render threads by name, and
 * the rest of the process), statements (pg_stat_statements calls: about one round trip each) and
 * transactions (pg_stat_database xact_commit) per render, and bytes through system calls (rchar +
 * wchar: sockets and files). Writes bench/results/scale.json.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TemplateDocumentT } from "@pictor/engine";
import pg from "pg";
import { RENDER_THREAD_NAME } from "../packages/server/src/adapters/queue/worker-pool.ts";
import { readServeConfig } from "../packages/server/src/main/config.ts";
import { openScaledState } from "../packages/server/src/main/scaled-state.ts";
import { freePort } from "../packages/server/test/scale/processes.ts";
import { startPostgres } from "../packages/server/test/support/postgres.ts";
import { s3Env, startS3 } from "../packages/server/test/support/s3.ts";
import { openLoop } from "./lib/open-loop.ts";
import { seedBenchAccount, seedDataDir, startPictorServe } from "./lib/pictor-serve.ts";
import { threadCpuMs, treeCpuMs, treeIoBytes } from "./lib/proc-stats.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import { numberedModifications, readReferenceScene } from "./lib/reference-scene.ts";
import { spawnRole, stopChild } from "./lib/role-process.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const ROWS = Number(process.env.BENCH_SCALE_BATCH_ROWS ?? 300);
// BENCH_SCALE_CLIENTS=1: the wait phase one render at a time, so no role contends for the cores (to
// tell what several worker processes cost by themselves from what sharing two cores costs them).
const CLIENTS = Number(process.env.BENCH_SCALE_CLIENTS ?? 8);
// The paced phase: every configuration, the embedded default too, renders this many a second, sent
// whatever the answers. CPU per render grows as a process idles between renders (each render wakes
// sleeping threads on cold caches), so the two flat-out phases compare the embedded default at 140
// renders/s with one worker at 30: this phase compares them at the same load. Below what the
// slowest configuration sustains here.
const PACE = Number(process.env.BENCH_SCALE_PACE ?? 20);
const cores = availableParallelism();
// BENCH_SCALE_ONLY=1x2 (processes x threads, comma-separated) runs those alone, for a quick look.
const ONLY = process.env.BENCH_SCALE_ONLY?.split(",").map((c) => c.trim());
const CONFIGS: { processes: number; threads: number }[] = [
  { processes: 1, threads: 1 },
  { processes: 2, threads: 1 },
  { processes: 4, threads: 1 },
  { processes: 1, threads: cores },
].filter((c) => !ONLY || ONLY.includes(`${c.processes}x${c.threads}`));
// BENCH_WORKER_PROFILE_DIR: worker processes write V8 CPU profiles there (every thread), to see where
// their time goes.
const PROFILE_DIR = process.env.BENCH_WORKER_PROFILE_DIR;
const configName = (c: { processes: number; threads: number }) =>
  `PG + S3, ${c.processes} worker process${c.processes > 1 ? "es" : ""} x ${c.threads} thread${c.threads > 1 ? "s" : ""}`;

const document = await readReferenceScene();
const photo = await makeReferencePhoto();
const modifications = (assetId: string, i: number) => numberedModifications(document, assetId, i);

/** The processes of one configuration, by role, and how to read its database's counters. */
interface Roles {
  /** Embedded: the one `pictor serve`; its render threads are split out by name. */
  embedded?: number;
  api: number[];
  workers: number[];
  postgres?: () => number;
  s3?: number;
  database?: () => Promise<{ statements: number; transactions: number }>;
  /** Calls so far by statement text (pg_stat_statements), to list what a phase ran most. */
  statementCalls?: () => Promise<Map<string, number>>;
}

/** The statements a phase ran most, per render. */
async function topStatements(roles: Roles, before: Map<string, number> | undefined, renders: number) {
  if (!roles.statementCalls || !before) return [];
  const after = await roles.statementCalls();
  return [...after]
    .map(([query, calls]) => ({ query, perRender: (calls - (before.get(query) ?? 0)) / renders }))
    .filter((s) => s.perRender > 0.05)
    .sort((a, b) => b.perRender - a.perRender)
    .slice(0, 15)
    .map((s) => ({
      perRender: Number(s.perRender.toFixed(2)),
      query: s.query.replace(/\s+/g, " ").slice(0, 160),
    }));
}

interface Reading {
  cpu: Record<string, number>;
  bytes: Record<string, number>;
  statements: number;
  transactions: number;
}

async function read(roles: Roles): Promise<Reading> {
  const cpu: Record<string, number> = {};
  const bytes: Record<string, number> = {};
  if (roles.embedded !== undefined) {
    const t = threadCpuMs(roles.embedded, RENDER_THREAD_NAME);
    cpu.renderThreads = t.named;
    cpu.embeddedMainThread = t.main;
    cpu.embeddedOtherThreads = t.other;
    cpu.embeddedProcess = treeCpuMs([roles.embedded]);
    bytes.embeddedProcess = treeIoBytes([roles.embedded]);
  }
  if (roles.api.length > 0) {
    cpu.api = treeCpuMs(roles.api);
    bytes.api = treeIoBytes(roles.api);
  }
  if (roles.workers.length > 0) {
    cpu.workers = treeCpuMs(roles.workers);
    bytes.workers = treeIoBytes(roles.workers);
    let threads = 0;
    let main = 0;
    for (const pid of roles.workers) {
      const t = threadCpuMs(pid, RENDER_THREAD_NAME);
      threads += t.named;
      main += t.main;
    }
    cpu.workerRenderThreads = threads;
    // The queue and database work (pg-boss, claim, completion): what the embedded process does on
    // its HTTP thread, so compare with its main thread.
    cpu.workerMainThreads = main;
  }
  if (roles.postgres) {
    cpu.postgres = treeCpuMs([roles.postgres()]);
    bytes.postgres = treeIoBytes([roles.postgres()]);
  }
  if (roles.s3 !== undefined) {
    cpu.objectStore = treeCpuMs([roles.s3]);
    bytes.objectStore = treeIoBytes([roles.s3]);
  }
  const db = (await roles.database?.()) ?? { statements: 0, transactions: 0 };
  return { cpu, bytes, ...db };
}

/** Per render between two readings. */
function perRender(before: Reading, after: Reading, renders: number) {
  const each = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.keys(b).map((k) => [k, ((b[k] ?? 0) - (a[k] ?? 0)) / renders]));
  return {
    cpuMs: each(before.cpu, after.cpu),
    bytes: each(before.bytes, after.bytes),
    statements: (after.statements - before.statements) / renders,
    transactions: (after.transactions - before.transactions) / renders,
  };
}
type PerRender = ReturnType<typeof perRender>;
type Phase = "wait" | "paced" | "batch";

interface Measured {
  waitRendersPerSecond: number;
  waitFailed: number;
  /** Renders/s the paced phase achieved (PACE when the configuration kept up). */
  pacedRendersPerSecond: number;
  pacedFailed: number;
  batchRendersPerSecond: number;
  batchSeconds: number;
  /** During the wait-mode phase (each render one HTTP request that waits for it). */
  wait: PerRender;
  /** During the paced phase (wait-mode renders sent at PACE a second). */
  paced: PerRender;
  /** During the batch (one request, then the queue drains). */
  batch: PerRender;
  /** PostgreSQL: the statements each phase ran most, per render. */
  topStatements: Record<Phase, { perRender: number; query: string }[]>;
}

/** The load, against one API base URL. */
async function measure(url: string, apiKey: string, assetId: string, roles: Roles): Promise<Measured> {
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  let sequence = 0;
  const waitRender = async () => {
    const body = JSON.stringify({
      template: document.key,
      modifications: modifications(assetId, sequence++),
      wait: true,
    });
    const res = await fetch(`${url}/v1/renders`, { method: "POST", headers, body });
    await res.arrayBuffer();
    return res.status === 200;
  };
  // Warm every render thread (engine, fonts, prepared photo); not counted.
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < 4; i++) await waitRender();
    }),
  );
  let done = 0;
  let failed = 0;
  const callsBefore = await roles.statementCalls?.();
  const before = await read(roles);
  const start = performance.now();
  const end = start + DURATION_S * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        if (await waitRender()) done++;
        else failed++;
      }
    }),
  );
  const waitRendersPerSecond = done / ((performance.now() - start) / 1000);
  const afterWait = await read(roles);
  const topWait = await topStatements(roles, callsBefore, done);

  let paced = 0;
  let pacedFailed = 0;
  const callsBeforePaced = await roles.statementCalls?.();
  const pacedStart = performance.now();
  await openLoop(PACE, DURATION_S * 1000, async () => {
    if (await waitRender()) paced++;
    else pacedFailed++;
  });
  const pacedRendersPerSecond = paced / ((performance.now() - pacedStart) / 1000);
  const afterPaced = await read(roles);
  const topPaced = await topStatements(roles, callsBeforePaced, paced);
  const callsBeforeBatch = await roles.statementCalls?.();

  const body = JSON.stringify({
    renders: Array.from({ length: ROWS }, (_, i) => ({
      template: document.key,
      modifications: modifications(assetId, i),
    })),
  });
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/renders/batch`, { method: "POST", headers, body });
  const accepted = (await res.json()) as { batch_id: string };
  if (res.status !== 202) throw new Error(`batch refused: ${res.status} ${JSON.stringify(accepted)}`);
  for (;;) {
    const batch = (await (await fetch(`${url}/v1/batches/${accepted.batch_id}`, { headers })).json()) as {
      counts: { completed: number; failed: number };
    };
    if (batch.counts.completed + batch.counts.failed >= ROWS) break;
    // Each poll reads every row of the batch: rarely, so that what it costs the API and PostgreSQL
    // stays small in their CPU per render (and the end is known to within half a second).
    await new Promise((r) => setTimeout(r, 500));
  }
  const batchSeconds = (performance.now() - t0) / 1000;
  const afterBatch = await read(roles);
  const topBatch = await topStatements(roles, callsBeforeBatch, ROWS);
  return {
    topStatements: { wait: topWait, paced: topPaced, batch: topBatch },
    waitRendersPerSecond,
    waitFailed: failed,
    pacedRendersPerSecond,
    pacedFailed,
    batchRendersPerSecond: ROWS / batchSeconds,
    batchSeconds,
    wait: perRender(before, afterWait, done),
    paced: perRender(afterWait, afterPaced, paced),
    batch: perRender(afterPaced, afterBatch, ROWS),
  };
}

/** The embedded default on a fresh data directory: the yardstick every scaled row is divided by. */
async function measureEmbedded(): Promise<Measured> {
  const seeded = await seedDataDir("pictor-bench-scale-", document, photo);
  const server = await startPictorServe(seeded.dir);
  try {
    return await measure(server.url, seeded.apiKey, seeded.assetId, {
      embedded: server.child.pid as number,
      api: [],
      workers: [],
    });
  } finally {
    await server.stop();
    rmSync(seeded.dir, { recursive: true, force: true });
  }
}

/** Two readings of the same shape, every number their mean (the first's lists are kept). */
function meanOf<T>(a: T, b: T): T {
  if (typeof a === "number" && typeof b === "number") return ((a + b) / 2) as T;
  if (a === null || typeof a !== "object" || Array.isArray(a)) return a;
  const keys = new Set([...Object.keys(a), ...Object.keys(b as object)]);
  return Object.fromEntries(
    [...keys].map((k) => [k, meanOf((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])]),
  ) as T;
}

// The embedded default before and after the scaled rows: this VM's speed drifts over minutes, and
// their mean brackets the drift (both readings are printed and kept).
console.error(`embedded default (${cores} render threads), before...`);
const embeddedBefore = await measureEmbedded();

const cluster = await startPostgres("bench:scale", ["shared_preload_libraries=pg_stat_statements"]);
const s3 = await startS3("bench:scale");
if (!cluster || !s3) {
  throw new Error("bench:scale needs PostgreSQL and OpenStack Swift (scripts/ci-services.sh installs both)");
}
const admin = new pg.Client({ connectionString: cluster.url });
await admin.connect();
await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
const scaled: Record<string, Measured> = {};
try {
  for (const config of CONFIGS) {
    const databaseUrl = await cluster.newDatabase();
    const databaseName = new URL(databaseUrl).pathname.slice(1);
    const dir = mkdtempSync(join(tmpdir(), "pictor-bench-scale-pg-"));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      ...s3Env(s3, `bench-${config.processes}x${config.threads}/`),
      PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
      PICTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PICTOR_LOG_LEVEL: "warn",
      PICTOR_RATE_LIMIT_BURST: "100000000",
      PICTOR_RATE_LIMIT_PER_SECOND: "1000000",
      PICTOR_EXAMPLES_DIR: join(dir, "none"),
    };
    const api = await spawnRole("api", ["--port", String(port)], env);
    const { apiKey, assetId } = await seedScaled(env, dir, document, photo);
    const workerProcesses = await Promise.all(
      Array.from({ length: config.processes }, () =>
        spawnRole("worker", ["--workers", String(config.threads)], {
          ...env,
          ...(PROFILE_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}` } : {}),
        }),
      ),
    );
    console.error(`${configName(config)}...`);
    const roles: Roles = {
      api: [api.pid as number],
      workers: workerProcesses.map((w) => w.pid as number),
      postgres: () => cluster.pid(),
      s3: s3.pid,
      async database() {
        const xacts = await admin.query(
          "SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1",
          [databaseName],
        );
        const calls = await admin.query(
          `SELECT coalesce(sum(calls), 0) AS n FROM pg_stat_statements
           WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)`,
          [databaseName],
        );
        return { transactions: Number(xacts.rows[0]?.n ?? 0), statements: Number(calls.rows[0]?.n ?? 0) };
      },
      async statementCalls() {
        const { rows } = await admin.query(
          `SELECT query, sum(calls)::bigint AS calls FROM pg_stat_statements
           WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) GROUP BY query`,
          [databaseName],
        );
        return new Map(rows.map((r) => [String(r.query), Number(r.calls)]));
      },
    };
    try {
      scaled[configName(config)] = await measure(`http://127.0.0.1:${port}`, apiKey, assetId, roles);
    } finally {
      await Promise.all([api, ...workerProcesses].map(stopChild));
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await admin.end();
  await Promise.all([cluster.stop(), s3.stop()]);
}
console.error(`embedded default (${cores} render threads), after...`);
const embeddedAfter = await measureEmbedded();
const embedded = meanOf(embeddedBefore, embeddedAfter);

/** One account, the photo as an asset (in S3), the scene published: through the same stores. */
async function seedScaled(env: NodeJS.ProcessEnv, dir: string, doc: TemplateDocumentT, bytes: Uint8Array) {
  const config = readServeConfig({ role: "api", data: dir }, env);
  if (config.backend.state !== "postgres") throw new Error("expected PostgreSQL");
  const state = await openScaledState(config, config.backend);
  try {
    const { apiKey, assetId } = await seedBenchAccount(state, doc, bytes);
    return { apiKey, assetId };
  } finally {
    await state.close();
  }
}

const one = scaled[configName(CONFIGS[0] as (typeof CONFIGS)[number])] as Measured;
const f1 = (n: number | undefined) => (n ?? 0).toFixed(1);
const f2 = (n: number | undefined) => (n ?? 0).toFixed(2);
const kib = (n: number | undefined) => ((n ?? 0) / 1024).toFixed(0);
const throughputRow = (name: string, m: Measured) =>
  `| ${name} | ${f1(m.waitRendersPerSecond)} | ${f2(m.waitRendersPerSecond / one.waitRendersPerSecond)} | ${f2(m.waitRendersPerSecond / embedded.waitRendersPerSecond)} | ${f1(m.batchRendersPerSecond)} | ${f2(m.batchRendersPerSecond / one.batchRendersPerSecond)} | ${f2(m.batchRendersPerSecond / embedded.batchRendersPerSecond)} | ${f1(m.pacedRendersPerSecond)} |`;
// What rendering costs the embedded process: every thread but the main (HTTP) one, i.e. the render
// threads plus the threads that work for them (sharp's encode runs on libuv's pool, V8's GC helpers).
// The yardstick for a worker process, which does that and its queue work.
const embeddedRenderMs = (p: PerRender) => (p.cpuMs.renderThreads ?? 0) + (p.cpuMs.embeddedOtherThreads ?? 0);
const cpuRow = (name: string, m: Measured, phase: Phase) => {
  const p = m[phase];
  return `| ${name} | ${f2(p.cpuMs.api ?? p.cpuMs.embeddedMainThread)} | ${f2(p.cpuMs.workers ?? p.cpuMs.renderThreads)} | ${p.cpuMs.workers === undefined ? f2(p.cpuMs.embeddedOtherThreads) : f2((p.cpuMs.workers ?? 0) - (p.cpuMs.workerRenderThreads ?? 0))} | ${p.cpuMs.postgres === undefined ? "-" : f2(p.cpuMs.postgres)} | ${p.cpuMs.objectStore === undefined ? "-" : f2(p.cpuMs.objectStore)} | ${f2(
    Object.entries(p.cpuMs)
      .filter(
        ([k]) =>
          ![
            "renderThreads",
            "embeddedMainThread",
            "embeddedOtherThreads",
            "workerRenderThreads",
            "workerMainThreads",
          ].includes(k),
      )
      .reduce((a, [, v]) => a + v, 0),
  )} | ${p.cpuMs.workers === undefined ? "1.00" : f2(workerOverEmbedded(m, phase))} | ${f1(p.statements)} | ${f1(p.transactions)} | ${kib(p.bytes.api ?? p.bytes.embeddedProcess)} / ${kib(p.bytes.workers)} / ${kib(p.bytes.postgres)} / ${kib(p.bytes.objectStore)} |`;
};
const EMBEDDED_NAME = `embedded default (${cores} render threads; mean of before and after)`;
const drift = (phase: Phase) =>
  `${f2(embeddedRenderMs(embeddedBefore[phase]))} before, ${f2(embeddedRenderMs(embeddedAfter[phase]))} after`;
const PHASE_NAME: Record<Phase, string> = {
  wait: `wait-mode renders from ${CLIENTS} clients, flat out`,
  paced: `wait-mode renders sent at ${PACE} a second to every configuration`,
  batch: `a batch of ${ROWS}, flat out`,
};
/** A worker process's CPU per render ÷ the embedded process's outside its main thread, same phase. */
const workerOverEmbedded = (m: Measured, phase: Phase) =>
  (m[phase].cpuMs.workers ?? 0) / embeddedRenderMs(embedded[phase]);
const cpuTable = (phase: Phase) => [
  `CPU ms per render by role, ${PHASE_NAME[phase]}; worker ÷ embedded = a worker process's CPU per render ÷ the embedded process's CPU per render outside its main (HTTP) thread, same phase:`,
  "| configuration | API (embedded: main thread) | worker process (embedded: render threads) | of which not render threads (embedded: other threads) | PostgreSQL | object store | total | worker ÷ embedded | statements | transactions | KiB moved API / worker / PG / S3 |",
  "|---|---|---|---|---|---|---|---|---|---|---|",
  cpuRow(EMBEDDED_NAME, embedded, phase),
  ...CONFIGS.map((c) => cpuRow(configName(c), scaled[configName(c)] as Measured, phase)),
];
console.log(
  [
    `This machine has ${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}), load average ${loadavg()[0]?.toFixed(1)} at the end (other work shares them). Every process below shares them:`,
    "the API process, the worker processes, PostgreSQL and Swift. Past 2 render threads, extra worker",
    "processes only divide the same 2 cores, so their figures show overhead, not the gain of added machines.",
    "The test Swift runs proxy, object, container and account servers in ONE Python process.",
    "",
    `| configuration | wait renders/s (c=${CLIENTS}) | ÷ 1 worker | ÷ embedded | batch of ${ROWS} renders/s | ÷ 1 worker | ÷ embedded | paced renders/s (sent at ${PACE}) |`,
    "|---|---|---|---|---|---|---|---|",
    throughputRow(EMBEDDED_NAME, embedded),
    ...CONFIGS.map((c) => throughputRow(configName(c), scaled[configName(c)] as Measured)),
    "",
    "Worker ÷ embedded CPU per render (a worker process's CPU per render ÷ the embedded process's outside its main thread). At the same load (paced) they compare like for like; flat out, the embedded default renders 4-5 times as many a second as the workers, whose roles share its two cores, and CPU per render grows as a process idles between renders:",
    `| configuration | same load (${PACE} renders/s) | flat out, wait (c=${CLIENTS}) | flat out, batch |`,
    "|---|---|---|---|",
    ...CONFIGS.map((c) => {
      const m = scaled[configName(c)] as Measured;
      return `| ${configName(c)} | ${f2(workerOverEmbedded(m, "paced"))} | ${f2(workerOverEmbedded(m, "wait"))} | ${f2(workerOverEmbedded(m, "batch"))} |`;
    }),
    "",
    ...cpuTable("paced"),
    "",
    ...cpuTable("wait"),
    "",
    ...cpuTable("batch"),
    "",
    `The embedded default, CPU ms per render outside its main thread: wait phase ${drift("wait")}; paced ${drift("paced")}; batch ${drift("batch")} (renders/s ${f1(embeddedBefore.waitRendersPerSecond)} / ${f1(embeddedAfter.waitRendersPerSecond)} and ${f1(embeddedBefore.batchRendersPerSecond)} / ${f1(embeddedAfter.batchRendersPerSecond)}).`,
  ].join("\n"),
);
await writeFile(
  join(benchDir, "results/scale.json"),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? "unknown",
      cores,
      loadAverageAtEnd: loadavg()[0],
      note: `${cores} cores shared by every process (API, workers, PostgreSQL, Swift) and by other work on the machine: worker processes beyond ${cores} cannot add throughput here`,
      scene: "bench/reference-scene.json",
      clients: CLIENTS,
      pacedRendersPerSecond: PACE,
      durationSeconds: DURATION_S,
      batchRows: ROWS,
      embedded,
      embeddedBefore,
      embeddedAfter,
      scaledOut: scaled,
      workerCpuPerRenderOverEmbeddedRenderThreads: Object.fromEntries(
        CONFIGS.map((c) => {
          const m = scaled[configName(c)] as Measured;
          return [
            configName(c),
            {
              paced: workerOverEmbedded(m, "paced"),
              wait: workerOverEmbedded(m, "wait"),
              batch: workerOverEmbedded(m, "batch"),
            },
          ];
        }),
      ),
    },
    null,
    2,
  )}\n`,
);
