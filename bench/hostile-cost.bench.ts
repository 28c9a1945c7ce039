/**
 * `npm run bench:hostile-cost`: what each of the hostile tenant's requests (issue 33,
 * packages/server/test/hostile/hostile-mix.ts) costs the server in CPU, split by the thread that
 * spent it (bench/lib/proc-stats.ts: the main thread, which serves the API; the render threads;
 * libvips, which decodes, resizes and encodes images for every thread of the process at its own
 * priority; V8's helper threads, which mostly mark the heap for the main thread's garbage
 * collections; the rest). Next to the other account's wait-mode render of the reference scene, for
 * scale. One request at a time on an otherwise idle `pictor serve` (memory budget 1024 MiB, 2 render
 * threads), each kind BENCH_HOSTILE_COST_N times (refusals 200 times). CPU time, unlike latency,
 * hardly depends on what else the machine runs, so this answers "where does the mix's cost land" on a
 * shared machine too. Writes bench/results/hostile-cost.json.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDataDir } from "../packages/server/src/main/data-dir.ts";
import {
  createUrlSigner,
  HOSTILE_RENDERS,
  hostileImagePath,
  makeNoisePhoto,
  prepareAtCap,
  seedHostileAccount,
} from "../packages/server/test/hostile/hostile-mix.ts";
import { seedBenchAccount, startPictorServe } from "./lib/pictor-serve.ts";
import { threadGroupsCpuMs } from "./lib/proc-stats.ts";
import { makeReferencePhoto } from "./lib/reference-photo.ts";
import { numberedModifications, readReferenceScene } from "./lib/reference-scene.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.BENCH_HOSTILE_COST_N ?? 5);
const REFUSALS = 200;

const document = await readReferenceScene();
const dir = mkdtempSync(join(tmpdir(), "pictor-bench-hostile-cost-"));
const data = openDataDir(dir, { examplesDir: join(dir, "none") });
const b = await seedBenchAccount(data, document, await makeReferencePhoto());
const h = await seedHostileAccount(data, await makeNoisePhoto());
data.close();
const server = await startPictorServe(dir, { PICTOR_MEMORY_BUDGET: "1024", PICTOR_WORKERS: "2" });
const pid = server.child.pid as number;

interface Cost {
  requests: number;
  statuses: Record<string, number>;
  /** Wall time per request, ms (one at a time). */
  wallMs: number;
  /** CPU per request by thread group, ms. */
  cpuMs: Record<string, number>;
}
const costs: Record<string, Cost> = {};

async function measure(name: string, n: number, one: (i: number) => Promise<Response>): Promise<void> {
  const statuses: Record<string, number> = {};
  const before = threadGroupsCpuMs(pid);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await one(i);
    await res.arrayBuffer();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
  const wallMs = (performance.now() - t0) / n;
  const after = threadGroupsCpuMs(pid);
  const cpuMs = Object.fromEntries(
    Object.entries(after).map(([group, ms]) => [
      group,
      Math.round(((ms - (before[group] ?? 0)) / n) * 10) / 10,
    ]),
  );
  costs[name] = { requests: n, statuses, wallMs: Math.round(wallMs * 10) / 10, cpuMs };
  console.error(`${name}: ${JSON.stringify(costs[name])}`);
}

const asB = { authorization: `Bearer ${b.apiKey}`, "content-type": "application/json" };
const asH = { authorization: `Bearer ${h.apiKey}`, "content-type": "application/json" };
const render = (headers: Record<string, string>, body: Record<string, unknown>) =>
  fetch(`${server.url}/v1/renders`, { method: "POST", headers, body: JSON.stringify({ ...body, wait: 60 }) });
const bRender = (i: number) =>
  render(asB, { template: document.key, modifications: numberedModifications(document, b.assetId, i) });
try {
  // Warm-up: the render threads load their engines and fonts, the API compiles its schemas.
  for (let i = 0; i < 50; i++) await (await bRender(i)).arrayBuffer();
  await measure("the other account's render (reference scene)", 200, bRender);
  for (const { part, body } of HOSTILE_RENDERS) {
    const first = await render(asH, body);
    await first.arrayBuffer();
    await measure(part, first.status === 422 ? REFUSALS : N, () => render(asH, body));
  }
  await measure(`prepare-image 16 MP`, N, () =>
    fetch(`${server.url}/v1/editor/prepare-image`, { method: "POST", headers: asH, body: prepareAtCap(h) }),
  );
  const signer = await createUrlSigner(server.url, h);
  await measure("on-demand URL (distinct, a 2000x2000 card)", N, async (i) =>
    fetch(server.url + (await hostileImagePath(signer, `cost ${Date.now()} ${i}`))),
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const groups = Object.keys(Object.values(costs)[0]?.cpuMs ?? {});
console.log(
  [
    `${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}), load average ${loadavg()[0]?.toFixed(1)} at the end. CPU ms per request, one at a time:`,
    "",
    `| request | answers | wall ms | ${groups.join(" | ")} |`,
    `|---|---|---|${groups.map(() => "---").join("|")}|`,
    ...Object.entries(costs).map(
      ([name, c]) =>
        `| ${name} | ${Object.entries(c.statuses)
          .map(([s, n]) => `${n}× ${s}`)
          .join(", ")} | ${c.wallMs} | ${groups.map((g) => c.cpuMs[g]).join(" | ")} |`,
    ),
  ].join("\n"),
);
await writeFile(
  join(benchDir, "results/hostile-cost.json"),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, loadAverageAtEnd: loadavg()[0], costs }, null, 2)}\n`,
);
