/**
 * `npm run bench:assets`: the asset library on the embedded default (SQLite) at 100,000 assets.
 * Assets of one account with realistic tags, metadata, folders, types and dates (skewed: a few tags
 * and campaigns are very common, most are rare), plus 20,000 of a second account so account scoping
 * is exercised, are inserted directly through the store's insert path (one transaction). Then five
 * representative queries run through AssetLibrary.query (SQL + row decoding, what the HTTP handler
 * calls) and report p50/p99. Writes bench/results/assets.json. Target: p50 < 10 ms each.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { planAssetQuery } from "../packages/server/src/adapters/sqlite/asset-query.ts";
import { insertAsset } from "../packages/server/src/adapters/sqlite/asset-store.ts";
import { transaction } from "../packages/server/src/adapters/sqlite/database.ts";
import { createAccount } from "../packages/server/src/domain/accounts.ts";
import { type AssetQueryBody, parseAssetQuery } from "../packages/server/src/domain/assets/query-request.ts";
import { newAssetToken, newId } from "../packages/server/src/domain/ids.ts";
import { openDataDir } from "../packages/server/src/main/data-dir.ts";
import { seededRandom } from "../packages/server/test/support/seeded-random.ts";

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const NOISE = Math.round(ASSETS / 5);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const benchDir = dirname(fileURLToPath(import.meta.url));

// Deterministic pseudo-random numbers, so every run builds the same library.
const random = seededRandom(0x5eed);
/** Zipf-like pick: index 0 is the most common. */
const skewed = <T>(items: readonly T[], s = 1.2): T =>
  items[Math.floor(items.length * random() ** (1 + s))] as T;
const uniform = <T>(items: readonly T[]): T => items[Math.floor(items.length * random())] as T;

const TEMPLATE_KEYS = [
  "promo",
  "story",
  "banner",
  "product-card",
  "event",
  "quote",
  "sale",
  "menu",
  "ad-square",
  "og",
];
const CAMPAIGNS = [
  "spring",
  "summer",
  "black-friday",
  "launch",
  ...Array.from({ length: 196 }, (_, i) => `campaign-${i}`),
];
const TAGS = [
  "social",
  "story",
  "feed",
  "ad",
  "logo",
  "product",
  "hero",
  ...Array.from({ length: 293 }, (_, i) => `tag-${i}`),
];
const LOCALES = ["en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "ja"];
const TYPES = ["image/png", "image/png", "image/png", "image/jpeg", "image/jpeg", "image/webp"];
const NOW = Date.parse("2026-11-01T00:00:00Z");
const DAY = 86_400_000;

function realisticAsset(accountId: string) {
  const id = newId("ast");
  const isRender = random() < 0.7;
  const tags = new Set<string>();
  const tagCount = 1 + Math.floor(random() * 4);
  while (tags.size < tagCount) tags.add(skewed(TAGS));
  const metadata: Record<string, string> = isRender
    ? {
        campaign: skewed(CAMPAIGNS),
        locale: skewed(LOCALES),
        customer_id: `cus_${Math.floor(random() * 20_000)}`,
      }
    : { source: uniform(["upload", "import", "editor"]) };
  return {
    id,
    accountId,
    folder: isRender
      ? `renders/${skewed(TEMPLATE_KEYS)}/`
      : uniform(["brand/logos/", "brand/photos/", "uploads/", "products/shoes/", "products/bags/"]),
    name: `${id}.png`,
    contentType: uniform(TYPES),
    byteSize: 20_000 + Math.floor(random() * 500_000),
    width: 1080,
    height: 1080,
    blobKey: `assets/${id}`,
    token: newAssetToken(),
    etag: `"${id}"`,
    metadata,
    tags: [...tags],
    renderId: isRender ? newId("rnd") : null,
    createdAt: new Date(NOW - Math.floor(random() * 365 * DAY)).toISOString(),
  };
}

const dir = mkdtempSync(join(tmpdir(), "pictor-bench-assets-"));
const data = openDataDir(dir, { examplesDir: join(dir, "none") });
const { accountId } = await createAccount(data, { name: "bench", credits: 0 });
const { accountId: otherAccount } = await createAccount(data, { name: "noise", credits: 0 });

const insertStarted = performance.now();
const files = data.db.prepare("INSERT INTO asset_files (asset_id, account_id, sha256) VALUES (?, ?, ?)");
for (const [account, count] of [
  [accountId, ASSETS],
  [otherAccount, NOISE],
] as const) {
  for (let done = 0; done < count; done += 10_000) {
    transaction(data.db, () => {
      for (let i = done; i < Math.min(count, done + 10_000); i++) {
        const asset = realisticAsset(account);
        insertAsset(data.db, asset);
        if (asset.renderId === null) files.run(asset.id, account, randomBytes(32).toString("hex"));
      }
    });
  }
}
data.db.exec("ANALYZE");
const insertSeconds = (performance.now() - insertStarted) / 1000;

const QUERIES: { name: string; body: AssetQueryBody }[] = [
  { name: "metadata campaign=spring (renders of one campaign)", body: { metadata: { campaign: "spring" } } },
  { name: "tags all [social, story] (two common tags)", body: { tags: ["social", "story"] } },
  {
    name: "folder renders/ recursive + created last 7 days",
    body: { folder: "renders", recursive: true, created: { gte: new Date(NOW - 7 * DAY).toISOString() } },
  },
  {
    name: "tags any [tag-40, tag-41] + content_type image/png (rare tags)",
    body: { tags: { any: ["tag-40", "tag-41"] }, content_type: "image/png" },
  },
  {
    name: "metadata campaign+locale, tag, folder (selective combination)",
    body: { metadata: { campaign: "summer", locale: "de" }, tags: ["story"], folder: "renders/promo/" },
  },
];

function percentile(sorted: number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

const rows: { name: string; body: AssetQueryBody; matchesFirstPage: number; p50Ms: number; p99Ms: number }[] =
  [];
for (const q of QUERIES) {
  const parsed = parseAssetQuery(q.body);
  if (!parsed.ok) throw new Error(parsed.message);
  const query = parsed.value;
  if (process.env.BENCH_EXPLAIN === "1") {
    const { text, params } = planAssetQuery(data.db, accountId, query);
    const plan = data.db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params);
    console.log(q.name, plan.map((r) => r.detail).join(" | "));
  }
  for (let i = 0; i < 10; i++) await data.assetLibrary.query(accountId, query);
  const times: number[] = [];
  let matches = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    const page = await data.assetLibrary.query(accountId, query);
    times.push(performance.now() - t0);
    matches = page.assets.length;
  }
  times.sort((a, b) => a - b);
  rows.push({
    name: q.name,
    body: q.body,
    matchesFirstPage: matches,
    p50Ms: Number(percentile(times, 50).toFixed(2)),
    p99Ms: Number(percentile(times, 99).toFixed(2)),
  });
}

const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  loadAverageAtEnd: Number(loadavg()[0]?.toFixed(2)),
  assets: { account: ASSETS, otherAccount: NOISE },
  insertSeconds: Number(insertSeconds.toFixed(1)),
  iterationsPerQuery: ITERATIONS,
  pageSize: 50,
  targetP50Ms: 10,
  rows,
};
await writeFile(join(benchDir, "results", "assets.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(`inserted ${ASSETS + NOISE} assets in ${result.insertSeconds} s`);
console.table(
  rows.map(({ name, matchesFirstPage, p50Ms, p99Ms }) => ({ name, matchesFirstPage, p50Ms, p99Ms })),
);
data.close();
if (process.env.BENCH_KEEP === "1") console.log(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });
