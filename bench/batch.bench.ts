/**
 * `npm run bench:batch`: one 1,000-row batch at scale 1 against a real `pictor serve` child process
 * on the embedded default (SQLite, files, worker threads, one per core), end to end until the last
 * completion callback has reached a loopback receiver (allow-listed). The single-render throughput
 * of the same server is measured first in the same run (wait-mode renders from 8 clients, as
 * bench:http's c=8 row, but each with its own headline like the batch rows),
 * so "batch renders/s / single renders/s" compares like with like on the same machine state.
 * Same scene as bench:http (bench/reference-scene.json). Writes bench/results/batch.json.
 */
import { rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { verifyCallback } from "@pictor/client";
import { seedDataDir, startPictorServe } from "./lib/pictor-serve.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import { numberedModifications, readReferenceScene } from "./lib/reference-scene.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const ROWS = Number(process.env.BENCH_BATCH_ROWS ?? 1000);
const NO_CALLBACKS = process.env.BENCH_BATCH_NO_CALLBACKS === "1";
const SINGLE_DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);

const document = await readReferenceScene();
const photo = await makeReferencePhoto();

const {
  dir,
  apiKey,
  webhookSecret: secret,
  assetId,
} = await seedDataDir("pictor-bench-batch-", document, photo);

const modifications = (i: number) => numberedModifications(document, assetId, i);

// The receiver: counts distinct render ids, checks every signature, notes when the last one came.
const callbacks = new Map<string, { arrivedAt: number; completedAt: number }>();
let badSignatures = 0;
let allArrived: () => void = () => {};
const arrived = new Promise<void>((resolve) => {
  allArrived = resolve;
});
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const raw = Buffer.concat(chunks);
    if (!verifyCallback(raw, request.headers["x-service-signature"] as string | undefined, secret))
      badSignatures++;
    const body = JSON.parse(raw.toString("utf8")) as { id: string; created_at: string };
    if (!callbacks.has(body.id)) {
      callbacks.set(body.id, { arrivedAt: performance.now(), completedAt: Date.parse(body.created_at) });
    }
    response.writeHead(204).end();
    if (callbacks.size === ROWS) allArrived();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverPort = (receiver.address() as AddressInfo).port;

const server = await startPictorServe(dir, { PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${receiverPort}` });
const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };

// Single renders: 8 clients in a loop, wait mode, each render with its own headline like the batch
// rows (a repeated text could hit caches a batch of distinct rows never hits). The first 40 warm
// every worker (fonts, wasm, prepared photo) and are not counted.
let sequence = 0;
async function singleRender(): Promise<boolean> {
  const body = JSON.stringify({
    template: document.key,
    modifications: modifications(sequence++),
    wait: true,
  });
  const response = await fetch(`${server.url}/v1/renders`, { method: "POST", headers, body });
  await response.arrayBuffer();
  return response.status === 200;
}
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let i = 0; i < 10; i++) await singleRender();
  }),
);
let singleDone = 0;
let singleFailed = 0;
const singleStart = performance.now();
const singleEnd = singleStart + SINGLE_DURATION_S * 1000;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (performance.now() < singleEnd) {
      if (await singleRender()) singleDone++;
      else singleFailed++;
    }
  }),
);
const single = {
  rendersPerSecond: singleDone / ((performance.now() - singleStart) / 1000),
  failed: singleFailed,
};
const singleRendersPerSecond = single.rendersPerSecond;
console.error(`single renders (wait, c=8): ${singleRendersPerSecond.toFixed(1)}/s, failed ${single.failed}`);

const batchBody = JSON.stringify({
  ...(NO_CALLBACKS ? {} : { webhook_url: `http://127.0.0.1:${receiverPort}/hook` }),
  renders: Array.from({ length: ROWS }, (_, i) => ({
    template: document.key,
    modifications: modifications(i),
  })),
});
const wallStart = Date.now();
const t0 = performance.now();
const res = await fetch(`${server.url}/v1/renders/batch`, { method: "POST", headers, body: batchBody });
const acceptedMs = performance.now() - t0;
const accepted = (await res.json()) as { batch_id: string; renders: { id?: string; error?: unknown }[] };
if (res.status !== 202) throw new Error(`batch refused: ${res.status} ${JSON.stringify(accepted)}`);
const refused = accepted.renders.filter((r) => r.error).length;
if (refused > 0) throw new Error(`${refused} rows refused`);
console.error(`batch of ${ROWS} accepted in ${acceptedMs.toFixed(0)} ms`);
// BENCH_BATCH_NO_CALLBACKS=1: the same batch without webhook_url, finished by polling the batch
// (to see what delivering the callbacks costs the renders).
const completions = NO_CALLBACKS
  ? await untilBatchDone(accepted.batch_id)
  : await arrived.then(() => callbacks);
const lastCallbackMs = NO_CALLBACKS ? Number.NaN : performance.now() - t0;
const lastCompletionMs = Math.max(...[...completions.values()].map((c) => c.completedAt)) - wallStart;

// Reading the finished batch back (counts and 1,000 jobs with their links).
const readStart = performance.now();
const read = await fetch(`${server.url}/v1/batches/${accepted.batch_id}`, { headers });
await read.arrayBuffer();
const batchReadMs = performance.now() - readStart;

await server.stop();
await new Promise<void>((resolve) => receiver.close(() => resolve()));
rmSync(dir, { recursive: true, force: true });

const rendersPerSecond = ROWS / (lastCompletionMs / 1000);
const callbacksPerSecond = ROWS / (lastCallbackMs / 1000);
const summary = {
  rows: ROWS,
  acceptMs: acceptedMs,
  acceptRowsPerSecond: ROWS / (acceptedMs / 1000),
  lastCompletionMs,
  lastCallbackMs,
  rendersPerSecond,
  callbacksPerSecond,
  singleRendersPerSecond,
  batchRendersOverSingle: rendersPerSecond / singleRendersPerSecond,
  callbacksOverSingle: callbacksPerSecond / singleRendersPerSecond,
  badSignatures,
  batchReadMs,
};
console.log(
  [
    "| measure | value |",
    "|---|---|",
    `| rows | ${ROWS} |`,
    `| batch accepted (POST answered) | ${acceptedMs.toFixed(0)} ms (${summary.acceptRowsPerSecond.toFixed(0)} rows/s) |`,
    `| last render completed | ${(lastCompletionMs / 1000).toFixed(2)} s → ${rendersPerSecond.toFixed(1)} renders/s |`,
    `| last callback received | ${(lastCallbackMs / 1000).toFixed(2)} s → ${callbacksPerSecond.toFixed(1)} callbacks/s |`,
    `| single renders, same run (wait, c=8) | ${singleRendersPerSecond.toFixed(1)} renders/s |`,
    `| batch renders/s ÷ single renders/s | ${summary.batchRendersOverSingle.toFixed(2)} |`,
    `| callbacks/s ÷ single renders/s | ${summary.callbacksOverSingle.toFixed(2)} |`,
    `| callbacks failing verifyCallback | ${badSignatures} |`,
    `| GET /v1/batches/:id of the finished batch | ${batchReadMs.toFixed(0)} ms |`,
  ].join("\n"),
);
await writeFile(
  join(benchDir, "results/batch.json"),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? "unknown",
      cores: availableParallelism(),
      loadAverageAtEnd: loadavg()[0],
      scene: "bench/reference-scene.json",
      scale: 1,
      format: "png",
      callbacks: !NO_CALLBACKS,
      summary,
    },
    null,
    2,
  )}\n`,
);

async function untilBatchDone(batchId: string): Promise<Map<string, { completedAt: number }>> {
  for (;;) {
    const batch = (await (await fetch(`${server.url}/v1/batches/${batchId}`, { headers })).json()) as {
      counts: { completed: number };
      renders: { id: string; completed_at: string }[];
    };
    if (batch.counts.completed === ROWS) {
      return new Map(batch.renders.map((r) => [r.id, { completedAt: Date.parse(r.completed_at) }]));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
