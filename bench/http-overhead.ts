/**
 * `BENCH_HTTP_OVERHEAD=1 npm run bench:http`: what metrics and request logging cost a wait-mode
 * render. Two `pictor serve` processes on the embedded default, each on its own data dir seeded
 * alike: one as shipped (Prometheus metrics on, one info log line per request, scraped every 5 s as
 * Prometheus would) and one with both off (PICTOR_METRICS=off, PICTOR_LOG_LEVEL=silent). Each run
 * starts both afresh (in alternating order), warms them up, then times the c=1 wait run of bench:http
 * (the reference scene, PNG, scale 1) on each in turn, alternating which goes first, so load drift
 * hits both alike. Fresh processes per run because one process of a pair can stay ~0.3 ms a request
 * slower than the other for its whole life whatever its settings (two identical servers measured so:
 * JIT and placement luck), which three runs on the same two processes would read as their settings'
 * cost. The figure is median(shipped p50s) / median(off p50s); the target is under 1.05. Beside it,
 * the API thread's CPU time per request of each (from /proc, hardly moved by other load on the
 * machine), the same comparison without the scheduling noise.
 * Writes bench/results/http-overhead.json.
 */
import { readFileSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { loadAverageAtStart, percentile } from "./lib/measure.ts";
import { type PictorServe, seedDataDir, startPictorServe } from "./lib/pictor-serve.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import { readReferenceScene } from "./lib/reference-scene.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const loadAtStart = loadAverageAtStart();
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const PAIRS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const SCRAPE_EVERY_MS = 5000;

const document = await readReferenceScene();
const sample = (document.sample ?? {}) as Record<string, string>;
const photo = await makeReferencePhoto();

interface Variant {
  name: "shipped" | "off";
  env: Record<string, string>;
  server: PictorServe | null;
  dir: string;
  body: string;
  headers: Record<string, string>;
  p50s: number[];
  /** The API thread's CPU milliseconds per request of each timed run. */
  apiThreadCpuMs: number[];
  requests: number;
  non2xx: number;
}

const seed = async (name: Variant["name"], env: Record<string, string>): Promise<Variant> => {
  const seeded = await seedDataDir(`pictor-bench-overhead-${name}-`, document, photo);
  return {
    name,
    env,
    server: null,
    dir: seeded.dir,
    body: JSON.stringify({
      template: document.key,
      modifications: [
        { name: "headline", text: sample.headline ?? "" },
        { name: "body", text: sample.body ?? "" },
        { name: "photo", image_url: seeded.assetId },
        { name: "ink", color: sample.ink ?? "#FFFFFF" },
      ],
      wait: true,
    }),
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    p50s: [],
    apiThreadCpuMs: [],
    requests: 0,
    non2xx: 0,
  };
};

const variants = [
  await seed("shipped", { PICTOR_LOG_LEVEL: "info", PICTOR_METRICS: "on" }),
  await seed("off", { PICTOR_LOG_LEVEL: "silent", PICTOR_METRICS: "off" }),
];
const [shipped, off] = variants as [Variant, Variant];
const serverOf = (variant: Variant): PictorServe => {
  if (!variant.server) throw new Error(`${variant.name} is not running`);
  return variant.server;
};
const metricsStatus = async (variant: Variant) => {
  const res = await fetch(`${serverOf(variant).url}/metrics`);
  await res.arrayBuffer();
  return res.status;
};

/** CPU time of the server's main thread (the API's event loop), ms. `sh` execs node: its pid is node's. */
const apiThreadCpuMs = (variant: Variant): number => {
  const pid = serverOf(variant).child.pid;
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
};

const startAndWarm = async (variant: Variant) => {
  // Logs go to a pipe the benchmark reads and drops, as they would to journald or a container runtime.
  variant.server = await startPictorServe(variant.dir, variant.env, { stderr: "drop" });
  // Every render thread warm (fonts, wasm, prepared photo) and the API's JIT, as bench:http does.
  await autocannon({
    url: `${variant.server.url}/v1/renders`,
    connections: 2,
    amount: 400,
    method: "POST",
    headers: variant.headers,
    body: variant.body,
  });
};

const timeWaitRun = async (variant: Variant): Promise<number> => {
  const server = serverOf(variant);
  // Scraped during the run, every 5 s from its middle (so a short run still has one scrape).
  let scraper: NodeJS.Timeout | null = null;
  const scrape = () => {
    void metricsStatus(variant).catch(() => {});
    scraper = setTimeout(scrape, SCRAPE_EVERY_MS);
  };
  if (variant === shipped) scraper = setTimeout(scrape, Math.min(SCRAPE_EVERY_MS, (DURATION_S * 1000) / 2));
  const cpuBefore = apiThreadCpuMs(variant);
  const run = autocannon({
    url: `${server.url}/v1/renders`,
    connections: 1,
    duration: DURATION_S,
    method: "POST",
    headers: variant.headers,
    body: variant.body,
  });
  // Exact latencies from the response events (autocannon's histogram keeps whole milliseconds).
  const latencies: number[] = [];
  let answered = 0;
  run.on("response", (_client, statusCode, _bytes, responseTimeMs) => {
    answered++;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
  });
  const result = await run;
  if (scraper) clearTimeout(scraper);
  const cpu = apiThreadCpuMs(variant) - cpuBefore;
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  variant.p50s.push(p50);
  variant.apiThreadCpuMs.push(cpu / Math.max(1, answered));
  variant.requests += latencies.length;
  variant.non2xx += result.non2xx + result.errors;
  return p50;
};

for (let pair = 0; pair < PAIRS; pair++) {
  // Alternate which starts and goes first, so neither always follows the other.
  const order = pair % 2 === 0 ? [shipped, off] : [off, shipped];
  for (const variant of order) await startAndWarm(variant);
  if (pair === 0 && ((await metricsStatus(shipped)) !== 200 || (await metricsStatus(off)) !== 404)) {
    throw new Error("expected /metrics 200 on the shipped server and 404 with PICTOR_METRICS=off");
  }
  for (const variant of order) {
    const p50 = await timeWaitRun(variant);
    console.error(
      `  run ${pair + 1}/${PAIRS}, ${variant.name}: wait p50 ${p50.toFixed(2)} ms, API thread CPU ${variant.apiThreadCpuMs.at(-1)?.toFixed(3)} ms/request, load ${loadavg()[0]?.toFixed(1)}`,
    );
  }
  for (const variant of order) {
    await serverOf(variant).stop();
    variant.server = null;
  }
}
for (const variant of variants) rmSync(variant.dir, { recursive: true, force: true });

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const shippedP50 = median(shipped.p50s);
const offP50 = median(off.p50s);
const ratio = shippedP50 / offP50;
const shippedCpu = median(shipped.apiThreadCpuMs);
const offCpu = median(off.apiThreadCpuMs);
console.log(
  `wait p50 (c=1), median of ${PAIRS} interleaved runs: metrics and logging as shipped ${shippedP50.toFixed(2)} ms ` +
    `(${shipped.p50s.map((p) => p.toFixed(2)).join(", ")}), both off ${offP50.toFixed(2)} ms ` +
    `(${off.p50s.map((p) => p.toFixed(2)).join(", ")}); ratio ${ratio.toFixed(3)} ` +
    `(${((ratio - 1) * 100).toFixed(1)} %; target under 5 %); API thread CPU per request ${shippedCpu.toFixed(3)} ms against ${offCpu.toFixed(3)} ms ` +
    `(+${(shippedCpu - offCpu).toFixed(3)} ms); load average ${loadAtStart} at start, ${loadavg()[0]?.toFixed(2)} at end`,
);
await writeFile(
  join(benchDir, "results/http-overhead.json"),
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
      runs: PAIRS,
      shipped: {
        env: shipped.env,
        scrapeEveryMs: SCRAPE_EVERY_MS,
        waitP50Ms: shipped.p50s,
        medianWaitP50Ms: shippedP50,
        apiThreadCpuMsPerRequest: shipped.apiThreadCpuMs,
        requests: shipped.requests,
        non2xx: shipped.non2xx,
      },
      off: {
        env: off.env,
        waitP50Ms: off.p50s,
        medianWaitP50Ms: offP50,
        apiThreadCpuMsPerRequest: off.apiThreadCpuMs,
        requests: off.requests,
        non2xx: off.non2xx,
      },
      freshProcessesPerRun: true,
      summary: {
        shippedOverOff: ratio,
        overheadPercent: (ratio - 1) * 100,
        target: "< 5 %",
        apiThreadCpuMsPerRequest: { shipped: shippedCpu, off: offCpu, added: shippedCpu - offCpu },
      },
    },
    null,
    2,
  )}\n`,
);
