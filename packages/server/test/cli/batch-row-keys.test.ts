import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runPictor, scratchForPictor, spawnServe } from "./serve-process.ts";

// Issue 33 items 8 and 9: `pictor batch` against a real `pictor serve`.
// 8: each row carries an idempotency key derived from its content, so with results.csv lost a rerun
//    charges only the rows that changed, however the rows are chunked.
// 9: a chunk over the 10 MiB body limit is split, and a row over it on its own fails alone.
const { dir, children } = scratchForPictor("pictor-batch-keys-");
let server: Awaited<ReturnType<typeof spawnServe>>;
let key: string;
const data = join(dir, "data");

/**
 * One text slot, drawn in the frame "card"; rows render the first frame, "main" (16×16, nothing
 * bound), so a render takes a few milliseconds whatever the text: a 10,000-character text laid out
 * takes 50 to 250 ms, and these tests are about requests, not drawing.
 */
const tinyCard = {
  version: 1,
  key: "tiny-card",
  name: "Tiny card",
  slots: [{ name: "title", type: "text", default: "Hi" }],
  frames: [
    { name: "main", width: 16, height: 16, background: "#FFFFFF", layers: [] },
    {
      name: "card",
      width: 64,
      height: 64,
      background: "#FFFFFF",
      layers: [
        {
          id: "title",
          type: "text",
          x: 0,
          y: 0,
          width: 64,
          height: 64,
          text: "Hi",
          font: { family: "Inter", size: 8 },
          color: "#000000",
          bind: { text: "title" },
        },
      ],
    },
  ],
};

beforeAll(async () => {
  const created = await runPictor([
    "accounts",
    "create",
    "--name",
    "keys",
    "--credits",
    "5000",
    "--no-starters",
    "--json",
    "--data",
    data,
  ]);
  expect(created.code, created.stderr).toBe(0);
  key = JSON.parse(created.stdout).api_key;
  server = await spawnServe(data, { ...process.env, PICTOR_LOG_LEVEL: "warn" }, children);
  const published = await fetch(`${server.url}/v1/templates`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ document: tinyCard, publish: true }),
  });
  expect(published.status).toBe(201);
});
afterAll(() => {
  server?.child.kill("SIGTERM");
});

const balance = async () =>
  (
    (await (
      await fetch(`${server.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { credits_balance: number }
  ).credits_balance;

const batch = (csv: string, out: string, extra: string[] = []) =>
  runPictor([
    "batch",
    csv,
    "--template",
    "tiny-card",
    "--url",
    server.url,
    "--key",
    key,
    "-o",
    out,
    "--no-progress",
    ...extra,
  ]);

const results = (out: string) =>
  parse(readFileSync(join(out, "results.csv"), "utf8"), { columns: true }) as Record<string, string>[];

const writeRows = (csv: string, titles: string[]) =>
  writeFileSync(csv, `title\n${titles.map((t) => `"${t.replaceAll('"', '""')}"`).join("\n")}\n`);

it("item 8: with results.csv lost and one row of 100 edited, a rerun charges 1 credit, chunked by 50 or by 25", async () => {
  const csv = join(dir, "hundred.csv");
  const out = join(dir, "hundred-out");
  const titles = Array.from({ length: 100 }, (_, i) => `Card ${i + 1}`);
  writeRows(csv, titles);
  const start = await balance();
  const first = await batch(csv, out, ["--chunk", "50"]);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toMatch(
    /^100 of 100 rows rendered \(0 already done, 100 sent\), 0 failed, 100 credits;/,
  );
  expect(await balance()).toBe(start - 100);

  // results.csv is lost, row 37 is edited: the rerun sends every row, and only row 37 is charged.
  rmSync(join(out, "results.csv"));
  titles[36] = "Card 37, edited";
  writeRows(csv, titles);
  const byFifty = await batch(csv, out, ["--chunk", "50"]);
  expect(byFifty.code, byFifty.stderr).toBe(0);
  expect(byFifty.stdout).toMatch(
    /^100 of 100 rows rendered \(0 already done, 100 sent\), 0 failed, 1 credits \(99 rows answered with renders accepted earlier, not charged again\);/,
  );
  expect(await balance()).toBe(start - 101);
  expect(results(out).filter((r) => r.status === "completed")).toHaveLength(100);

  // Again, chunked by 25 this time, with row 62 edited: 1 credit.
  rmSync(join(out, "results.csv"));
  titles[61] = "Card 62, edited";
  writeRows(csv, titles);
  const byTwentyFive = await batch(csv, out, ["--chunk", "25"]);
  expect(byTwentyFive.code, byTwentyFive.stderr).toBe(0);
  expect(byTwentyFive.stdout).toMatch(/, 0 failed, 1 credits \(99 rows answered/);
  expect(await balance()).toBe(start - 102);
  const rows = results(out);
  expect(rows.filter((r) => r.status === "completed")).toHaveLength(100);
  expect(readdirSync(out).filter((f) => f.endsWith(".png"))).toHaveLength(100);
  // Each row's key is the one derived from its content, whatever the chunk.
  expect(new Set(rows.map((r) => r.key)).size).toBe(100);
  expect(rows.every((r) => /^pictor-batch-[0-9a-f]{64}$/.test(r.key ?? ""))).toBe(true);

  // A row moved to another line keeps its key: still nothing charged.
  rmSync(join(out, "results.csv"));
  writeRows(csv, [titles[99] as string, ...titles.slice(0, 99)]);
  const moved = await batch(csv, out, ["--chunk", "30"]);
  expect(moved.code, moved.stderr).toBe(0);
  expect(moved.stdout).toMatch(/, 0 failed, 0 credits \(100 rows answered/);
  expect(await balance()).toBe(start - 102);
});

it("item 8: rows with the same content are each their own render, and a rerun charges neither again", async () => {
  const csv = join(dir, "twins.csv");
  const out = join(dir, "twins-out");
  writeRows(csv, ["Twin", "Twin", "Other"]);
  const start = await balance();
  const first = await batch(csv, out);
  expect(first.code, first.stderr).toBe(0);
  expect(await balance()).toBe(start - 3);
  const ids = results(out).map((r) => r.id);
  expect(new Set(ids).size).toBe(3);
  rmSync(join(out, "results.csv"));
  const again = await batch(csv, out);
  expect(again.code, again.stderr).toBe(0);
  expect(results(out).map((r) => r.id)).toEqual(ids);
  expect(await balance()).toBe(start - 3);
});

it("item 9: 600 rows of 9,990-character text (12 MB) go out in requests under the body limit, all rendered", async () => {
  const csv = join(dir, "long.csv");
  const out = join(dir, "long-out");
  // 2 bytes a character in UTF-8: about 20 kB a row, 12 MB in all, over the 10 MiB of one request.
  const titles = Array.from({ length: 600 }, (_, i) => `${i + 1} `.padEnd(9990, "é"));
  writeRows(csv, titles);
  const start = await balance();
  const run = await batch(csv, out);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(
    /^600 of 600 rows rendered \(0 already done, 600 sent\), 0 failed, 600 credits;/,
  );
  const rows = results(out);
  expect(rows).toHaveLength(600);
  expect(rows.every((r) => r.status === "completed")).toBe(true);
  expect(readdirSync(out).filter((f) => f.endsWith(".png"))).toHaveLength(600);
  expect(await balance()).toBe(start - 600);
});

it("item 9: a row over the body limit on its own is that row's error in results.csv; the others render", async () => {
  const csv = join(dir, "huge.csv");
  const out = join(dir, "huge-out");
  writeRows(csv, ["Before", "x".repeat(10.5 * 1024 * 1024), "After"]);
  const start = await balance();
  const run = await batch(csv, out);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /huge\.csv:3: refused: payload_too_large: this row alone is a 10\.5 MiB request; a batch request holds at most 10\.0 MiB\n/,
  );
  expect(run.stdout).toMatch(/^2 of 3 rows rendered \(0 already done, 2 sent\), 1 failed, 2 credits;/);
  const rows = results(out);
  expect(rows.map((r) => [r.row, r.status])).toEqual([
    ["2", "completed"],
    ["3", "refused"],
    ["4", "completed"],
  ]);
  expect(rows[1]?.error).toMatch(/^payload_too_large: /);
  expect(await balance()).toBe(start - 2);
});
