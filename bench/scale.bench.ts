/**
 * `npm run bench:scale`: the same load on the embedded default and on PostgreSQL + S3 (throwaway
 * cluster and OpenStack Swift, test/support/) with 1, 2 and 4 worker processes, in one run.
 * Load per configuration: wait-mode renders from 8 clients for BENCH_DURATION_S seconds (after a warm
 * up), then one batch of BENCH_SCALE_BATCH_ROWS rows until its last render completes (polled).
 * Embedded: one `pictor serve` (render threads = cores). Scaled: one `--role api` process and N
 * `--role worker --workers 1` processes. Same scene as bench:http. Writes bench/results/scale.json.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TemplateDocumentT } from "@pictor/engine";
import { readServeConfig } from "../packages/server/src/main/config.ts";
import { openScaledState } from "../packages/server/src/main/scaled-state.ts";
import { freePort } from "../packages/server/test/scale/processes.ts";
import { startPostgres } from "../packages/server/test/support/postgres.ts";
import { startS3 } from "../packages/server/test/support/s3.ts";
import { seedBenchAccount, seedDataDir, startPictorServe } from "./lib/pictor-serve.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import { readReferenceScene } from "./lib/reference-scene.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const BIN = fileURLToPath(new URL("../packages/server/bin/pictor.js", import.meta.url));
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const ROWS = Number(process.env.BENCH_SCALE_BATCH_ROWS ?? 300);
const CLIENTS = 8;
const WORKER_COUNTS = [1, 2, 4];
// The same 2-worker load with blobs in a shared directory instead of S3: separates what the object
// store costs on this machine from what PostgreSQL and the processes cost.
const CONFIGS: { workers: number; blobs: "s3" | "files" }[] = [
  ...WORKER_COUNTS.map((workers) => ({ workers, blobs: "s3" as const })),
  { workers: 2, blobs: "files" },
];
const configName = (workers: number, blobs: "s3" | "files") =>
  `PostgreSQL + ${blobs === "s3" ? "S3" : "shared dir"}, ${workers} worker process${workers > 1 ? "es" : ""}`;
const cores = availableParallelism();

const document = await readReferenceScene();
const sample = document.sample ?? {};
const photo = await makeReferencePhoto();
const modifications = (assetId: string, i: number) => [
  { name: "headline", text: `${sample.headline ?? ""} #${i}` },
  { name: "body", text: sample.body ?? "" },
  { name: "photo", image_url: assetId },
  { name: "ink", color: sample.ink ?? "#FFFFFF" },
];

interface Measured {
  waitRendersPerSecond: number;
  waitFailed: number;
  batchRendersPerSecond: number;
  batchSeconds: number;
}

/** The load, against one API base URL. */
async function measure(url: string, apiKey: string, assetId: string): Promise<Measured> {
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
    await new Promise((r) => setTimeout(r, 100));
  }
  const batchSeconds = (performance.now() - t0) / 1000;
  return {
    waitRendersPerSecond,
    waitFailed: failed,
    batchRendersPerSecond: ROWS / batchSeconds,
    batchSeconds,
  };
}

function spawnRole(role: "api" | "worker", args: string[], env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, "serve", "--role", role, ...args], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      out += d;
      if (/listening on|render worker started/.test(out)) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`pictor --role ${role} exited with ${code}`)));
  });
}

const stopChild = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await gone;
};

// Embedded default first.
const seeded = await seedDataDir("pictor-bench-scale-", document, photo);
const embeddedServer = await startPictorServe(seeded.dir);
console.error(`embedded default (${cores} render threads)...`);
const embedded = await measure(embeddedServer.url, seeded.apiKey, seeded.assetId);
await embeddedServer.stop();
rmSync(seeded.dir, { recursive: true, force: true });

const cluster = await startPostgres("bench:scale");
const s3 = await startS3("bench:scale");
if (!cluster || !s3) {
  throw new Error("bench:scale needs PostgreSQL and OpenStack Swift (scripts/ci-services.sh installs both)");
}
const scaled: Record<string, Measured> = {};
try {
  for (const { workers, blobs } of CONFIGS) {
    const databaseUrl = await cluster.newDatabase();
    const dir = mkdtempSync(join(tmpdir(), "pictor-bench-scale-pg-"));
    const port = await freePort();
    const s3Env =
      blobs === "s3"
        ? {
            S3_ENDPOINT: s3.endpoint,
            S3_REGION: s3.region,
            S3_BUCKET: s3.bucket,
            S3_ACCESS_KEY_ID: s3.accessKeyId,
            S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
            S3_PREFIX: `bench-${workers}/`,
          }
        : { PICTOR_DATA_DIR: dir };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      ...s3Env,
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
      Array.from({ length: workers }, () => spawnRole("worker", ["--workers", "1"], env)),
    );
    console.error(`PostgreSQL + ${blobs}, 1 API process + ${workers} worker process(es)...`);
    try {
      scaled[configName(workers, blobs)] = await measure(`http://127.0.0.1:${port}`, apiKey, assetId);
    } finally {
      await Promise.all([api, ...workerProcesses].map(stopChild));
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await Promise.all([cluster.stop(), s3.stop()]);
}

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

const one = scaled[configName(1, "s3")] as Measured;
const row = (name: string, m: Measured) =>
  `| ${name} | ${m.waitRendersPerSecond.toFixed(1)} | ${(m.waitRendersPerSecond / one.waitRendersPerSecond).toFixed(2)} | ${(m.waitRendersPerSecond / embedded.waitRendersPerSecond).toFixed(2)} | ${m.batchRendersPerSecond.toFixed(1)} | ${(m.batchRendersPerSecond / one.batchRendersPerSecond).toFixed(2)} | ${(m.batchRendersPerSecond / embedded.batchRendersPerSecond).toFixed(2)} |`;
console.log(
  [
    `This machine has ${cores} cores (${cpus()[0]?.model ?? "unknown CPU"}). Every process below shares them:`,
    "the API process, the worker processes, PostgreSQL and Swift. Past 2 render threads, extra worker",
    "processes only divide the same 2 cores, so their figures show overhead, not the gain of added machines.",
    "The test Swift runs proxy, object, container and account servers in ONE Python process (about half a",
    "core at 40 writes/s here): the 'shared dir' row is the same PostgreSQL path without it.",
    "",
    `| configuration | wait renders/s (c=${CLIENTS}) | ÷ 1 worker | ÷ embedded | batch of ${ROWS} renders/s | ÷ 1 worker | ÷ embedded |`,
    "|---|---|---|---|---|---|---|",
    row(`embedded default (${cores} render threads)`, embedded),
    ...CONFIGS.map((c) =>
      row(configName(c.workers, c.blobs), scaled[configName(c.workers, c.blobs)] as Measured),
    ),
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
      note: `${cores} cores shared by every process (API, workers, PostgreSQL, Swift): worker processes beyond ${cores} cannot add throughput here`,
      scene: "bench/reference-scene.json",
      clients: CLIENTS,
      durationSeconds: DURATION_S,
      batchRows: ROWS,
      embedded,
      scaledOut: scaled,
    },
    null,
    2,
  )}\n`,
);
