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

/** A receiver recipe running as its own process, with the lines it prints. */
interface Receiver {
  child: ChildProcess;
  url: string;
  lines: string[];
  /** Resolves with the first line the receiver prints (or has printed) that matches. */
  prints(match: RegExp): Promise<string>;
}

const RECEIVERS = ["fastify-receiver.ts", "express-receiver.ts"] as const;
const receivers = new Map<string, Receiver>();
let server: Awaited<ReturnType<typeof spawnServe>>;
let apiKey: string;

async function startReceiver(file: string, env: NodeJS.ProcessEnv): Promise<Receiver> {
  const child = spawn(process.execPath, [join(recipes, file)], {
    cwd: root,
    env: { ...process.env, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const lines: string[] = [];
  const waiters: { match: RegExp; resolve: (line: string) => void }[] = [];
  let buffered = "";
  child.stdout?.on("data", (chunk) => {
    buffered += chunk;
    const complete = buffered.split("\n");
    buffered = complete.pop() ?? "";
    for (const line of complete) {
      lines.push(line);
      for (const w of waiters.filter((x) => x.match.test(line))) w.resolve(line);
    }
  });
  const prints = (match: RegExp) => {
    const seen = lines.find((l) => match.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise<string>((resolve) => waiters.push({ match, resolve }));
  };
  const listening = await prints(/^receiver listening on /);
  return { child, url: listening.replace("receiver listening on ", ""), lines, prints };
}

beforeAll(async () => {
  const data = await accountIn(dir, 50);
  apiKey = data.apiKey;
  // The receivers first (their ports go into the server's outbound allowlist), the server after, on a
  // port chosen now: a receiver fetches the webhook secret through the SDK on its first delivery.
  const serverPort = await freePort();
  const env = { PICTOR_API_KEY: apiKey, PICTOR_URL: `http://127.0.0.1:${serverPort}` };
  for (const file of RECEIVERS) receivers.set(file, await startReceiver(file, env));
  const allowed = [...receivers.values()].map((r) => new URL(r.url).host).join(",");
  server = await spawnServe(data.dir, quietEnv({ PICTOR_OUTBOUND_ALLOWLIST: allowed }), children, [
    "--port",
    String(serverPort),
  ]);
});
afterAll(() => {
  server?.child.kill("SIGTERM");
  for (const r of receivers.values()) r.child.kill("SIGTERM");
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

it.each(RECEIVERS)("%s stores the asset_url of a signed callback and refuses a forged one", async (file) => {
  const receiver = receivers.get(file);
  if (!receiver) throw new Error(`${file} did not start`);
  const pictor = new Pictor({ apiKey, baseUrl: server.url });
  const job = await pictor.renders.create(
    {
      template: "blog-og-card",
      modifications: [{ name: "headline", text: "Called back" }],
      webhook_url: `${receiver.url}/pictor/callback`,
    },
    { wait: true },
  );
  const stored = await receiver.prints(new RegExp(`^stored ${job.id} `));
  expect(stored).toBe(`stored ${job.id} ${job.asset_url}`);

  const forged = await fetch(`${receiver.url}/pictor/callback`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-signature": `sha256=${"0".repeat(64)}` },
    body: JSON.stringify({
      event_id: "evt_forged",
      id: "rnd_forged",
      asset_url: "https://evil.example/x.png",
    }),
  });
  expect(forged.status).toBe(401);
  expect(receiver.lines.some((l) => l.includes("rnd_forged"))).toBe(false);
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
