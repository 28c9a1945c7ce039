/**
 * `npm run bench:cli-batch`: `pictor batch` on a 500-row CSV (10 bad rows) against a real `pictor serve`,
 * end to end (read the file, send, wait, download 490 images, write results.csv), versus the same 490
 * rows sent by hand as one batch request with fetch, polled until every render is done, then the images
 * downloaded 16 at a time. Alternating, BENCH_RUNS times (default 3), each run with fresh headlines so
 * that nothing is replayed from the idempotency store. Prints rows/s of each and the ratio of medians.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startPictorServe } from "./lib/pictor-serve.ts";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../packages/server/bin/pictor.js", import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), "pictor-bench-cli-batch-"));
const data = join(dir, "data");
const created = await run(process.execPath, [
  BIN,
  "accounts",
  "create",
  "--name",
  "bench",
  "--credits",
  "100000",
  "--json",
  "--data",
  data,
]);
const { api_key: key } = JSON.parse(created.stdout) as { api_key: string };
const server = await startPictorServe(data);

interface Row {
  name: string;
  headline: string;
  accent: string;
  scale: string;
  webhook_url: string;
}
function rows(tag: string): Row[] {
  const out: Row[] = [];
  for (let i = 1; i <= 500; i++) {
    const row = {
      name: `card-${i}`,
      headline: `${tag} headline ${i}, with a comma`,
      accent: `#${((i * 2654435) % 0xffffff).toString(16).padStart(6, "0")}`,
      scale: "1",
      webhook_url: "",
    };
    if (i % 100 === 7) row.accent = "red";
    if (i === 23 || i === 223 || i === 423) row.scale = "five";
    if (i === 41 || i === 341) row.webhook_url = "http://127.0.0.1/hook";
    out.push(row);
  }
  return out;
}

const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };

async function byHand(tag: string): Promise<number> {
  const good = rows(tag).filter((r) => r.accent !== "red" && r.scale !== "five");
  const started = performance.now();
  const response = await fetch(`${server.url}/v1/renders/batch`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({
      renders: good.map((r) => ({
        template: "blog-og-card",
        modifications: [
          { name: "headline", text: r.headline },
          { name: "category", text: "News" },
          { name: "accent", color: r.accent },
        ],
        scale: 1,
        metadata: { campaign: "spring" },
        ...(r.webhook_url ? { webhook_url: r.webhook_url } : {}),
      })),
    }),
  });
  const { batch_id } = (await response.json()) as { batch_id: string };
  let batch: { counts: { queued: number; rendering: number }; renders: { asset_url?: string | null }[] };
  for (;;) {
    batch = (await (
      await fetch(`${server.url}/v1/batches/${batch_id}`, { headers: auth })
    ).json()) as typeof batch;
    if (batch.counts.queued + batch.counts.rendering === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const urls = batch.renders.flatMap((r) => (r.asset_url ? [r.asset_url] : []));
  const out = mkdtempSync(join(dir, "hand-"));
  for (let i = 0; i < urls.length; i += 16) {
    await Promise.all(
      urls.slice(i, i + 16).map(async (url, j) => {
        const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
        await writeFile(join(out, `${i + j}.png`), bytes);
      }),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  if (urls.length !== 490) throw new Error(`by hand: ${urls.length} images, expected 490`);
  return urls.length / seconds;
}

async function withCli(tag: string): Promise<number> {
  const csv = join(dir, `${tag}.csv`);
  const lines = ["name,headline,category,accent,scale,webhook_url,metadata.campaign"];
  for (const r of rows(tag))
    lines.push(`${r.name},"${r.headline}",News,${r.accent},${r.scale},${r.webhook_url},spring`);
  writeFileSync(csv, `${lines.join("\n")}\n`);
  const started = performance.now();
  const result = await run(process.execPath, [
    BIN,
    "batch",
    csv,
    "--template",
    "blog-og-card",
    "--url",
    server.url,
    "--key",
    key,
    "-o",
    join(dir, `${tag}-out`),
    "--name-column",
    "name",
    "--no-progress",
  ]).catch((e: { stdout: string }) => e);
  const seconds = (performance.now() - started) / 1000;
  if (!/^490 of 500 rows rendered/.test(result.stdout)) throw new Error(`pictor batch: ${result.stdout}`);
  return 490 / seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const hand: number[] = [];
const cli: number[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    hand.push(await byHand(`hand${i}`));
    cli.push(await withCli(`cli${i}`));
    console.log(
      `run ${i + 1}: by hand ${hand.at(-1)?.toFixed(1)} rows/s, pictor batch ${cli.at(-1)?.toFixed(1)} rows/s`,
    );
  }
  console.log(
    `median: by hand ${median(hand).toFixed(1)} rows/s, pictor batch ${median(cli).toFixed(1)} rows/s, ratio ${(median(cli) / median(hand)).toFixed(2)} (load average ${loadavg()[0]?.toFixed(1)})`,
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
