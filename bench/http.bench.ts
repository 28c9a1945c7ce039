/**
 * `npm run bench:http`: the API on the embedded default (a real `pictor serve` child process: SQLite,
 * files, worker threads, one per core) driven over loopback by autocannon:
 *   - wait-mode renders of the reference scene, scale 1, PNG, at concurrency 1 and 8;
 *   - GET /v1/renders/:id per second;
 *   - async accepts per second (POST /v1/renders without waiting; last, since it floods the queue).
 * The engine-only time (createNodeRenderer, same scene, same cached photo) is measured in the same
 * run, so "wait p50 / engine-only median" is the cost of HTTP, database, queue and storage.
 * Writes bench/results/http.json.
 */
import { rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createNodeRenderer } from "@pictor/render-node";
import autocannon from "autocannon";
import { engineThroughput } from "./lib/engine-threads.ts";
import { loadAverageAtStart, measure } from "./lib/measure.ts";
import { seedDataDir, startPictorServe } from "./lib/pictor-serve.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import { readReferenceScene } from "./lib/reference-scene.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const loadAtStart = loadAverageAtStart();
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

const document = await readReferenceScene();
const sample = document.sample ?? {};
const photo = await makeReferencePhoto();

const { dir, apiKey, assetId } = await seedDataDir("pictor-bench-http-", document, photo);

const modifications = [
  { name: "headline", text: sample.headline ?? "" },
  { name: "body", text: sample.body ?? "" },
  { name: "photo", image_url: assetId },
  { name: "ink", color: sample.ink ?? "#FFFFFF" },
];

// Engine-only reference: the Node renderer alone, same scene, photo cached as an immutable asset.
const renderer = await createNodeRenderer();
const engineOnly = await measure(
  "engine-only compose+png x1",
  () =>
    renderer.render(document, {
      frame: "og",
      values: sample,
      scale: 1,
      format: "png",
      loadImage: async () => photo,
      sourceIdentity: (src) => src,
    }),
  { targetMs: 3000, minIterations: 40 },
);
renderer.dispose();
console.error(`engine only: median ${engineOnly.medianMs.toFixed(2)} ms`);

// What the machine allows right now: engine-only renders/s with one thread and with one per core.
const cores = availableParallelism();
const engineThreads1 = await engineThroughput(1, 5);
const engineThreadsN = await engineThroughput(cores, 5);
console.error(
  `engine only, threads: 1 -> ${engineThreads1.toFixed(1)}/s, ${cores} -> ${engineThreadsN.toFixed(1)}/s`,
);

// The accept run floods the queue on purpose; measure acceptance, not the 503 guard.
const server = await startPictorServe(dir, { PICTOR_MAX_QUEUED: "10000000" });
const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
const renderBody = (wait: boolean) => JSON.stringify({ template: document.key, modifications, wait });

interface Row {
  name: string;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}
const rows: Row[] = [];

async function drive(name: string, connections: number, opts: autocannon.Options): Promise<Row> {
  const result = await autocannon({ connections, duration: DURATION_S, ...opts });
  const row: Row = {
    name,
    connections,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  rows.push(row);
  console.error(
    `  ${name} c=${connections}: ${row.requestsPerSecond.toFixed(1)}/s p50 ${row.p50Ms} ms p99 ${row.p99Ms} ms`,
  );
  return row;
}

// Warm every worker (fonts, wasm, prepared photo) before measuring.
await autocannon({
  url: `${server.url}/v1/renders`,
  connections: 4,
  amount: 40,
  method: "POST",
  headers,
  body: renderBody(true),
});

// autocannon's latencies are whole milliseconds: too coarse against a ~7 ms render. The ratio uses
// this sequential run, timed with performance.now around each request (keep-alive connection).
const waitSequential = await measure(
  "wait render c=1 (sequential, exact)",
  async () => {
    const res = await fetch(`${server.url}/v1/renders`, { method: "POST", headers, body: renderBody(true) });
    if (res.status !== 200) throw new Error(`wait render answered ${res.status}`);
    await res.arrayBuffer();
  },
  { targetMs: 4000, minIterations: 100 },
);
console.error(`  wait render sequential: median ${waitSequential.medianMs.toFixed(2)} ms`);

const wait1 = await drive("wait render", 1, {
  url: `${server.url}/v1/renders`,
  method: "POST",
  headers,
  body: renderBody(true),
});
const wait8 = await drive("wait render", 8, {
  url: `${server.url}/v1/renders`,
  method: "POST",
  headers,
  body: renderBody(true),
});
const one = await fetch(`${server.url}/v1/renders`, { method: "POST", headers, body: renderBody(true) });
const renderId = ((await one.json()) as { id: string }).id;
const polls = await drive("GET /v1/renders/:id", 8, { url: `${server.url}/v1/renders/${renderId}`, headers });
const accepts = await drive("async accept", 8, {
  url: `${server.url}/v1/renders`,
  method: "POST",
  headers,
  body: renderBody(false),
});
await server.stop();
rmSync(dir, { recursive: true, force: true });

const summary = {
  engineOnlyMedianMs: engineOnly.medianMs,
  waitMedianMs: waitSequential.medianMs,
  waitP50OverEngineOnly: waitSequential.medianMs / engineOnly.medianMs,
  throughputC8OverC1: wait8.requestsPerSecond / wait1.requestsPerSecond,
  engineRendersPerSecond: { threads1: engineThreads1, [`threads${cores}`]: engineThreadsN },
  /** The same ratio for the engine alone in this run: the most the HTTP figure can reach here. */
  engineScalingOnThisMachine: engineThreadsN / engineThreads1,
  targets: { waitP50OverEngineOnly: "<= 1.3", throughputC8OverC1: ">= 1.6" },
};
const table = [
  "| run | connections | req/s | p50 ms | p99 ms | non-2xx |",
  "|---|---|---|---|---|---|",
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.connections} | ${r.requestsPerSecond.toFixed(1)} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} |`,
  ),
  `| wait render, sequential (exact timing) | 1 | ${waitSequential.rendersPerSecond.toFixed(1)} | ${waitSequential.medianMs.toFixed(1)} | – | – |`,
  `| engine only (same run) | 1 | ${engineOnly.rendersPerSecond.toFixed(1)} | ${engineOnly.medianMs.toFixed(1)} | – | – |`,
].join("\n");
console.log(table);
console.log(
  `\nwait p50 / engine-only median: ${summary.waitP50OverEngineOnly.toFixed(2)} (target <= 1.3)` +
    `\nthroughput c=8 / c=1: ${summary.throughputC8OverC1.toFixed(2)} (target >= 1.6; the engine alone ` +
    `scaled ${summary.engineScalingOnThisMachine.toFixed(2)}x from 1 to ${cores} threads in this run)`,
);
await writeFile(
  join(benchDir, "results/http.json"),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? "unknown",
      cores: availableParallelism(),
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadavg()[0],
      durationSeconds: DURATION_S,
      scene: "bench/reference-scene.json",
      rows,
      engineOnly,
      summary,
      polls: polls.requestsPerSecond,
      accepts: accepts.requestsPerSecond,
    },
    null,
    2,
  )}\n`,
);
