import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Pictor } from "../src/index.ts";
import { accountIn, quietEnv, runPictor, scratchForPictor, spawnServe } from "./support.ts";

// docs/recipes.md: every recipe file is shown there verbatim and run here against a real server.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const recipes = join(root, "examples/recipes");
const doc = readFileSync(join(root, "docs/recipes.md"), "utf8");
const { dir, children } = scratchForPictor("pictor-recipes-");

let receiver: ChildProcess;
let receiverUrl: string;
const receiverLines: string[] = [];
const lineWaiters: { match: RegExp; resolve: (line: string) => void }[] = [];
let server: Awaited<ReturnType<typeof spawnServe>>;
let apiKey: string;

/** Resolves with the first line the receiver prints (or has printed) that matches. */
function receiverPrints(match: RegExp): Promise<string> {
  const seen = receiverLines.find((l) => match.test(l));
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => lineWaiters.push({ match, resolve }));
}

beforeAll(async () => {
  const data = await accountIn(dir, 50);
  apiKey = data.apiKey;
  // The receiver first (its port goes into the server's outbound allowlist), the server after, on a
  // port chosen now: the receiver fetches the webhook secret through the SDK on its first delivery.
  const serverPort = await freePort();
  receiver = spawn(process.execPath, [join(recipes, "fastify-receiver.ts")], {
    cwd: root,
    env: { ...process.env, PORT: "0", PICTOR_API_KEY: apiKey, PICTOR_URL: `http://127.0.0.1:${serverPort}` },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(receiver);
  let buffered = "";
  receiver.stdout?.on("data", (chunk) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      receiverLines.push(line);
      for (const w of lineWaiters.filter((x) => x.match.test(line))) w.resolve(line);
    }
  });
  const listening = await receiverPrints(/^receiver listening on /);
  receiverUrl = listening.replace("receiver listening on ", "");
  server = await spawnServe(
    data.dir,
    quietEnv({ PICTOR_OUTBOUND_ALLOWLIST: new URL(receiverUrl).host }),
    children,
    ["--port", String(serverPort)],
  );
});
afterAll(() => {
  server?.child.kill("SIGTERM");
  receiver?.kill("SIGTERM");
});

it("docs/recipes.md shows each recipe file exactly", () => {
  for (const file of ["render.ts", "fastify-receiver.ts", "cards.csv"]) {
    expect(doc, file).toContain(readFileSync(join(recipes, file), "utf8"));
  }
});

it("render.ts renders and saves the image", async () => {
  const out = join(dir, "out.png");
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(recipes, "render.ts"), out], {
      cwd: root,
      env: { ...process.env, PICTOR_API_KEY: apiKey, PICTOR_URL: server.url },
    });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^rnd_\w+: 1200x630, 1 credit\(s\), http:\/\/127\.0\.0\.1:\d+\/a\/\w+\.png\n$/);
  expect(await sharp(out).metadata()).toMatchObject({ width: 1200, height: 630, format: "png" });
});

it("fastify-receiver.ts stores the asset_url of a signed callback and refuses a forged one", async () => {
  const pictor = new Pictor({ apiKey, baseUrl: server.url });
  const job = await pictor.renders.create(
    {
      template: "blog-og-card",
      modifications: [{ name: "headline", text: "Called back" }],
      webhook_url: `${receiverUrl}/pictor/callback`,
    },
    { wait: true },
  );
  const stored = await receiverPrints(new RegExp(`^stored ${job.id} `));
  expect(stored).toBe(`stored ${job.id} ${job.asset_url}`);

  const forged = await fetch(`${receiverUrl}/pictor/callback`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-signature": `sha256=${"0".repeat(64)}` },
    body: JSON.stringify({
      event_id: "evt_forged",
      id: "rnd_forged",
      asset_url: "https://evil.example/x.png",
    }),
  });
  expect(forged.status).toBe(401);
  expect(receiverLines.some((l) => l.includes("rnd_forged"))).toBe(false);
});

it("bulk: the CSV recipe's command renders every row and a rerun sends nothing", async () => {
  const out = join(dir, "cards");
  const args = [
    "batch",
    join(recipes, "cards.csv"),
    "--template",
    "blog-og-card",
    "--name-column",
    "file",
    "-o",
    out,
    "--key",
    apiKey,
    "--url",
    server.url,
  ];
  const first = await runPictor(args);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toMatch(/^3 of 3 rows rendered \(0 already done, 3 sent\), 0 failed, 3 credits/);
  for (const name of ["launch", "guide", "webhooks"]) {
    expect((await sharp(join(out, `${name}.png`)).metadata()).width).toBe(1200);
  }
  const again = await runPictor(args);
  expect(again.stdout).toMatch(/^3 of 3 rows rendered \(3 already done, 0 sent\)/);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
