import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Pictor } from "@pictor/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runPictor, scratchForPictor, spawnServe } from "./serve-process.ts";

// `pictor batch --preflight` and the client's preflight against a real `pictor serve`.
const { dir, children } = scratchForPictor("pictor-batch-preflight-");
let server: Awaited<ReturnType<typeof spawnServe>>;
let key: string;
const data = join(dir, "data");
const csv = join(dir, "cards.csv");

const template = {
  version: 1,
  key: "headline-card",
  name: "Headline card",
  slots: [
    { name: "headline", type: "text", default: "Hello" },
    { name: "accent", type: "color", default: "#336699" },
  ],
  frames: [
    {
      name: "main",
      width: 400,
      height: 100,
      bind: { background: "accent" },
      layers: [
        {
          id: "headline",
          type: "text",
          x: 10,
          y: 10,
          width: 380,
          height: 40,
          text: "",
          color: "#000000",
          font: { family: "Inter", size: 32 },
          fit: "shrink",
          min_size: 10,
          bind: { text: "headline" },
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
    "pf",
    "--credits",
    "50",
    "--json",
    "--data",
    data,
  ]);
  const account = JSON.parse(created.stdout) as { account_id: string; api_key: string };
  key = account.api_key;
  const file = join(dir, "headline-card.json");
  writeFileSync(file, JSON.stringify(template));
  const pushed = await runPictor([
    "templates",
    "push",
    file,
    "--account",
    account.account_id,
    "--publish",
    "--data",
    data,
  ]);
  expect(pushed.code, pushed.stderr).toBe(0);
  server = await spawnServe(data, { ...process.env, PICTOR_LOG_LEVEL: "warn" }, children);
  writeFileSync(
    csv,
    [
      "headline,accent",
      "Short,#112233",
      '"A headline far too long to fit on one line of this small card, however hard it tries",#445566',
      "Fine,red",
    ].join("\n"),
  );
});
afterAll(() => {
  server?.child.kill("SIGTERM");
});

const balance = async () =>
  (await new Pictor({ apiKey: key, baseUrl: server.url }).account.get()).credits_balance;

it("prints each row's preflight, renders nothing and charges nothing", async () => {
  const before = await balance();
  const run = await runPictor([
    "batch",
    csv,
    "--template",
    "headline-card",
    "--url",
    server.url,
    "--key",
    key,
    "--preflight",
  ]);
  expect(run.code).toBe(1);
  const lines = run.stdout.trim().split("\n");
  expect(lines[0]).toBe("row 2: ok, 1 credit");
  expect(lines[1]).toMatch(/^row 3: ok, 1 credit; headline: text shrunk from 32 px to \d+(\.\d+)? px$/);
  expect(lines[2]).toMatch(/^row 4: accent: /);
  expect(lines[3]).toBe(
    "preflight: 2 of 3 rows would render for 2 credits; 1 would be refused. Nothing was rendered or charged.",
  );
  expect(existsSync(join(dir, "cards-renders"))).toBe(false);
  expect(await balance()).toBe(before);
});

it("the client's renders.preflight reports the shrink", async () => {
  const pictor = new Pictor({ apiKey: key, baseUrl: server.url });
  const report = await pictor.renders.preflight({
    template: "headline-card",
    modifications: [
      { name: "headline", text: "A headline far too long to fit on one line of this small card" },
    ],
  });
  expect(report).toMatchObject({ valid: true, cost: 1, measured: true });
  expect(report.layers[0]?.findings[0]).toMatchObject({ code: "text_shrunk", from_px: 32 });
});
