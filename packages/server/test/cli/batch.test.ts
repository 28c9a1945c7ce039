import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runPictor, scratchForPictor, spawnServe } from "./serve-process.ts";

// `pictor batch` against a real `pictor serve`: 500 rows, 10 of them bad, then a rerun.
const { dir, children } = scratchForPictor("pictor-batch-cli-");
let server: Awaited<ReturnType<typeof spawnServe>>;
let key: string;
let account: string;
const data = join(dir, "data");
const csv = join(dir, "cards.csv");
const out = join(dir, "out");

beforeAll(async () => {
  const created = await runPictor([
    "accounts",
    "create",
    "--name",
    "bulk",
    "--credits",
    "2000",
    "--json",
    "--data",
    data,
  ]);
  ({ account_id: account, api_key: key } = JSON.parse(created.stdout));
  server = await spawnServe(data, { ...process.env, PICTOR_LOG_LEVEL: "warn" }, children);
  const lines = ["name,headline,category,accent,scale,webhook_url,metadata.campaign"];
  for (let i = 1; i <= 500; i++) {
    let accent = `#${((i * 2654435) % 0xffffff).toString(16).padStart(6, "0")}`;
    let scale = "1";
    let hook = "";
    if (i % 100 === 7) accent = "red"; // 5 rows: caught before sending
    if (i === 23 || i === 223 || i === 423) scale = "five"; // 3 rows: caught before sending
    if (i === 41 || i === 341) hook = "http://127.0.0.1/hook"; // 2 rows: refused by the server
    lines.push(`card-${i},"Headline ${i}, with a comma",News,${accent},${scale},${hook},spring`);
  }
  writeFileSync(csv, `${lines.join("\n")}\n`);
});
afterAll(() => {
  server?.child.kill("SIGTERM");
});

const balance = async () =>
  (
    (await (
      await fetch(`${server.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as {
      credits_balance: number;
    }
  ).credits_balance;

const batch = (extra: string[] = []) =>
  runPictor([
    "batch",
    csv,
    "--template",
    "blog-og-card",
    "--url",
    server.url,
    "--key",
    key,
    "-o",
    out,
    "--name-column",
    "name",
    "--chunk",
    "200",
    ...extra,
  ]);

it("renders 490 of 500 rows, reports the 10 bad ones by line, and a rerun sends nothing new", async () => {
  const first = await batch();
  expect(first.code).toBe(1); // some rows failed
  const errors = first.stderr.trim().split("\n");
  expect(errors).toHaveLength(10);
  // Line numbers in the file: row i is on line i + 1 (the header is line 1).
  expect(errors).toContain(`${csv}:8: refused: accent: "red" is not a colour in the form #RRGGBB`);
  expect(errors).toContain(`${csv}:24: refused: scale: "five" is not a number from 1 to 4`);
  expect(errors.find((e) => e.startsWith(`${csv}:42: refused: invalid_webhook_url`))).toBeDefined();
  expect(first.stdout).toMatch(
    /^490 of 500 rows rendered \(0 already done, 492 sent\), 10 failed, 490 credits/,
  );

  const images = readdirSync(out).filter((f) => f.endsWith(".png"));
  expect(images).toHaveLength(490);
  expect(images).toContain("card-1.png");
  expect(images).not.toContain("card-7.png");
  expect((await sharp(join(out, "card-500.png")).metadata()).width).toBe(1200);

  const results = parse(readFileSync(join(out, "results.csv"), "utf8"), { columns: true }) as Record<
    string,
    string
  >[];
  expect(results).toHaveLength(500);
  expect(results.filter((r) => r.status === "completed")).toHaveLength(490);
  expect(results.find((r) => r.row === "2")).toMatchObject({ status: "completed", file: "card-1.png" });
  expect(results.find((r) => r.row === "2")?.asset_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a\/\w+\.png$/);
  expect(results.find((r) => r.row === "42")?.error).toMatch(/^invalid_webhook_url: /);
  const charged = await balance();
  expect(charged).toBe(2000 - 490);

  // Rerun with the same results file: nothing is sent, nothing charged, the results stay as they are.
  const before = readFileSync(join(out, "results.csv"), "utf8");
  const again = await batch();
  expect(again.stdout).toMatch(
    /^490 of 500 rows rendered \(490 already done, 0 sent\), 10 failed, 0 credits/,
  );
  expect(readFileSync(join(out, "results.csv"), "utf8")).toBe(before);
  expect(await balance()).toBe(charged);

  // Even with the results file lost, the rows' idempotency keys make the server replay its answers:
  // the images come back, nothing is charged twice.
  rmSync(out, { recursive: true });
  const lost = await batch();
  expect(lost.stdout).toMatch(/^490 of 500 rows rendered \(0 already done, 492 sent\), 10 failed/);
  expect(readdirSync(out).filter((f) => f.endsWith(".png"))).toHaveLength(490);
  expect(await balance()).toBe(charged);
});

it("reads JSON rows too, and refuses a column that is not a slot before sending anything", async () => {
  const json = join(dir, "rows.json");
  writeFileSync(json, JSON.stringify([{ headline: "From JSON", scale: 2 }, { headline: "Second" }]));
  const run = await runPictor([
    "batch",
    json,
    "--template",
    "blog-og-card",
    "--url",
    server.url,
    "--key",
    key,
    "-o",
    join(dir, "json-out"),
    "--no-progress",
  ]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^2 of 2 rows rendered .* 5 credits/);
  expect((await sharp(join(dir, "json-out", "row-1.png")).metadata()).width).toBe(2400);

  writeFileSync(join(dir, "typo.csv"), "headlin\nx\n");
  const before = await balance();
  const typo = await runPictor([
    "batch",
    join(dir, "typo.csv"),
    "--template",
    "blog-og-card",
    "--url",
    server.url,
    "--key",
    key,
  ]);
  expect(typo.code).toBe(2);
  expect(typo.stderr).toMatch(/^pictor: column headlin: not a slot of blog-og-card/);
  expect(await balance()).toBe(before);
  expect(account).toMatch(/^acct_/);

  const noTemplate = await runPictor([
    "batch",
    json,
    "--template",
    "nope",
    "--url",
    server.url,
    "--key",
    key,
  ]);
  expect(noTemplate).toMatchObject({ code: 2, stderr: "pictor: template nope: No template 'nope'.\n" });
  const closed = await runPictor([
    "batch",
    json,
    "--template",
    "blog-og-card",
    "--url",
    "http://127.0.0.1:1",
    "--key",
    key,
  ]);
  expect(closed.code).toBe(1);
  expect(closed.stderr).toMatch(
    /^pictor batch: connection_error: GET \/v1\/templates\/blog-og-card\/schema: .*\(after 4 retries\)\n$/,
  );
});

it("rows refused for want of credits are sent again by a rerun after a grant; completed ones are not", async () => {
  const created = await runPictor([
    "accounts",
    "create",
    "--name",
    "poor",
    "--credits",
    "2",
    "--json",
    "--data",
    data,
  ]);
  const poor = JSON.parse(created.stdout) as { account_id: string; api_key: string };
  const rows = join(dir, "four.csv");
  writeFileSync(rows, "headline\nOne\nTwo\nThree\nFour\n");
  const args = [
    "batch",
    rows,
    "--template",
    "blog-og-card",
    "--url",
    server.url,
    "--key",
    poor.api_key,
    "-o",
    join(dir, "four-out"),
  ];
  const first = await runPictor(args);
  expect(first.code).toBe(1);
  expect(first.stdout).toMatch(/^2 of 4 rows rendered \(0 already done, 4 sent\), 2 failed, 2 credits/);
  expect(first.stderr).toMatch(/four\.csv:4: refused: insufficient_credits: /);

  const granted = await runPictor(["credits", "grant", poor.account_id, "10", "--data", data]);
  expect(granted.code, granted.stderr).toBe(0);
  const again = await runPictor(args);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toMatch(/^4 of 4 rows rendered \(2 already done, 2 sent\), 0 failed, 2 credits/);
  expect(
    readdirSync(join(dir, "four-out"))
      .filter((f) => f.endsWith(".png"))
      .sort(),
  ).toEqual(["row-2.png", "row-3.png", "row-4.png", "row-5.png"]);
});
