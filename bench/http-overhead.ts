/**
 * `BENCH_HTTP_OVERHEAD=1 npm run bench:http`: what metrics and request logging cost a wait-mode
 * render. Two `pictor serve` processes on the embedded default, each on its own data dir seeded
 * alike: one as shipped (Prometheus metrics on, one info log line per request, scraped every 5 s as
 * Prometheus would) and one with both off (PICTOR_METRICS=off, PICTOR_LOG_LEVEL=silent). Both are
 * warmed up, then the c=1 wait run of bench:http (the reference scene, PNG, scale 1) is timed on each
 * in turn, three times: shipped, off, shipped, off, ... so load drift hits both alike. The figure is
 * median(shipped p50s) / median(off p50s); the target is under 1.05.
 * Writes bench/results/http-overhead.json.
 */
import { rmSync } from "node:fs";
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
  server: PictorServe;
  dir: string;
  body: string;
  headers: Record<string, string>;
  p50s: number[];
  requests: number;
  non2xx: number;
}

const start = async (name: Variant["name"], env: Record<string, string>): Promise<Variant> => {
  const seeded = await seedDataDir(`pictor-bench-overhead-${name}-`, document, photo);
  // Logs go to a pipe the benchmark reads and drops, as they would to journald or a container runtime.
  const server = await startPictorServe(seeded.dir, env, { stderr: "drop" });
  return {
    name,
    env,
    server,
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
    requests: 0,
    non2xx: 0,
  };
};

// One after the other: each process sizes its render threads to the machine.
const variants = [
  await start("shipped", { PICTOR_LOG_LEVEL: "info", PICTOR_METRICS: "on" }),
  await start("off", { PICTOR_LOG_LEVEL: "silent", PICTOR_METRICS: "off" }),
];
const [shipped, off] = variants as [Variant, Variant];
const metricsStatus = async (variant: Variant) => {
  const res = await fetch(`${variant.server.url}/metrics`);
  await res.arrayBuffer();
  return res.status;
};
if ((await metricsStatus(shipped)) !== 200 || (await metricsStatus(off)) !== 404) {
  throw new Error("expected /metrics 200 on the shipped server and 404 with PICTOR_METRICS=off");
}

for (const variant of variants) {
  // Every render thread warm (fonts, wasm, prepared photo) and the API's JIT, as bench:http does.
  await autocannon({
    url: `${variant.server.url}/v1/renders`,
    connections: 2,
    amount: 400,
    method: "POST",
    headers: variant.headers,
    body: variant.body,
  });
}

const timeWaitRun = async (variant: Variant): Promise<number> => {
  // Scraped during the run, every 5 s from its middle (so a short run still has one scrape).
  let scraper: NodeJS.Timeout | null = null;
  const scrape = () => {
    void metricsStatus(variant).catch(() => {});
    scraper = setTimeout(scrape, SCRAPE_EVERY_MS);
  };
  if (variant === shipped) scraper = setTimeout(scrape, Math.min(SCRAPE_EVERY_MS, (DURATION_S * 1000) / 2));
  const run = autocannon({
    url: `${variant.server.url}/v1/renders`,
    connections: 1,
    duration: DURATION_S,
    method: "POST",
    headers: variant.headers,
    body: variant.body,
  });
  // Exact latencies from the response events (autocannon's histogram keeps whole milliseconds).
  const latencies: number[] = [];
  run.on("response", (_client, statusCode, _bytes, responseTimeMs) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
  });
  const result = await run;
  if (scraper) clearTimeout(scraper);
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  variant.p50s.push(p50);
  variant.requests += latencies.length;
  variant.non2xx += result.non2xx + result.errors;
  return p50;
};

for (let pair = 0; pair < PAIRS; pair++) {
  // Alternate which goes first, so neither always follows the other's run.
  const order = pair % 2 === 0 ? [shipped, off] : [off, shipped];
  for (const variant of order) {
    const p50 = await timeWaitRun(variant);
    console.error(`  pair ${pair + 1}/${PAIRS}, ${variant.name}: wait p50 ${p50.toFixed(2)} ms`);
  }
}
for (const variant of variants) {
  await variant.server.stop();
  rmSync(variant.dir, { recursive: true, force: true });
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const shippedP50 = median(shipped.p50s);
const offP50 = median(off.p50s);
const ratio = shippedP50 / offP50;
console.log(
  `wait p50 (c=1), median of ${PAIRS} interleaved runs: metrics and logging as shipped ${shippedP50.toFixed(2)} ms ` +
    `(${shipped.p50s.map((p) => p.toFixed(2)).join(", ")}), both off ${offP50.toFixed(2)} ms ` +
    `(${off.p50s.map((p) => p.toFixed(2)).join(", ")}); ratio ${ratio.toFixed(3)} ` +
    `(${((ratio - 1) * 100).toFixed(1)} %; target under 5 %)`,
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
        requests: shipped.requests,
        non2xx: shipped.non2xx,
      },
      off: {
        env: off.env,
        waitP50Ms: off.p50s,
        medianWaitP50Ms: offP50,
        requests: off.requests,
        non2xx: off.non2xx,
      },
      summary: { shippedOverOff: ratio, overheadPercent: (ratio - 1) * 100, target: "< 5 %" },
    },
    null,
    2,
  )}\n`,
);
