/**
 * `npm run bench:shutdown`: how long `pictor serve` takes from SIGTERM to exit while callers wait for
 * renders, against the stop timeouts docs/deploy.md gives (systemd unit TimeoutStopSec=60, container
 * stop timeout 60 s; Docker's own default is 10 s).
 *
 * - embedded: `pictor serve` (one render thread), one wait render held mid-draw on a slow image
 *   (released 2 s after SIGTERM: a render that takes that long) and four wait renders queued behind it;
 * - scaled API: `pictor serve --role api` on PostgreSQL + S3 (throwaway cluster and Swift) with one wait
 *   render queued and no worker running (a backlog): the caller is answered 202 with its URL.
 * Each with PICTOR_DRAIN_DELAY_SECONDS=BENCH_DRAIN_DELAY_S (default 5, as docs/deploy.md suggests for a
 * load balancer), BENCH_SHUTDOWN_RUNS runs each (default 3, median reported). Prints the figures and
 * writes bench/results/shutdown.json.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAccount } from "../packages/server/src/domain/accounts.ts";
import { readServeConfig } from "../packages/server/src/main/config.ts";
import { openScaledState } from "../packages/server/src/main/scaled-state.ts";
import { api } from "../packages/server/test/api/support.ts";
import { tinyTemplate } from "../packages/server/test/callbacks/support.ts";
import { exited, spawnServe, trialKeyOf } from "../packages/server/test/cli/serve-process.ts";
import { samples } from "../packages/server/test/operations/support.ts";
import { freePort, spawnPictor } from "../packages/server/test/scale/processes.ts";
import { startHeldImage } from "../packages/server/test/support/held-image.ts";
import { startPostgres } from "../packages/server/test/support/postgres.ts";
import { s3Env, startS3 } from "../packages/server/test/support/s3.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const DRAIN_S = Number(process.env.BENCH_DRAIN_DELAY_S ?? 5);
const RUNS = Number(process.env.BENCH_SHUTDOWN_RUNS ?? 3);
const RENDER_HELD_S = 2;
const BUDGETS_S = { systemd_TimeoutStopSec: 60, container_stop_timeout_documented: 60, docker_default: 10 };

interface Run {
  answered_s: number;
  exited_s: number;
  statuses: number[];
  exit_code: number | null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const seconds = (from: number) => Math.round((performance.now() - from) / 10) / 100;

async function untilAccepted(url: string, count: number): Promise<void> {
  for (;;) {
    const text = await (await fetch(`${url}/metrics`)).text();
    if (samples(text).get('pictor_renders_accepted_total{format="png",mode="wait"}') === count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function embeddedRun(dir: string): Promise<Run> {
  const images = await startHeldImage();
  const data = mkdtempSync(join(dir, "data-"));
  const children: import("node:child_process").ChildProcess[] = [];
  try {
    const server = await spawnServe(
      data,
      {
        ...process.env,
        PICTOR_DRAIN_DELAY_SECONDS: String(DRAIN_S),
        PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${images.port}`,
        PICTOR_EXAMPLES_DIR: join(dir, "no-examples"),
      },
      children,
    );
    const key = trialKeyOf(server);
    await api(server, "POST", "/v1/templates", { key, body: { document: tinyTemplate(), publish: true } });
    const held = api(server, "POST", "/v1/renders", {
      key,
      body: { template: "tiny", modifications: [{ name: "photo", image_url: images.url }], wait: 60 },
    });
    await images.requested;
    const behind = Array.from({ length: 4 }, (_, i) =>
      api(server, "POST", "/v1/renders", {
        key,
        body: { template: "tiny", modifications: [{ name: "title", text: `behind ${i}` }], wait: 60 },
      }),
    );
    await untilAccepted(server.url, 5);
    const sigterm = performance.now();
    server.child.kill("SIGTERM");
    setTimeout(() => images.release(), RENDER_HELD_S * 1000);
    const answers = await Promise.all([held, ...behind]);
    const answered_s = seconds(sigterm);
    const { code } = await exited(server.child);
    return {
      answered_s,
      exited_s: seconds(sigterm),
      statuses: answers.map((a) => a.status),
      exit_code: code,
    };
  } finally {
    images.release();
    await images.close();
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  }
}

async function scaledRun(
  env: NodeJS.ProcessEnv,
  key: string,
  running: Set<import("node:child_process").ChildProcess>,
) {
  const port = await freePort();
  const apiProcess = await spawnPictor("api", ["--port", String(port), "--workers", "1"], env, running);
  const base = { url: `http://127.0.0.1:${port}` };
  const waiting = api(base, "POST", "/v1/renders", {
    key,
    body: { template: "tiny", modifications: [{ name: "title", text: "queued" }], wait: 60 },
  });
  await untilAccepted(base.url, 1);
  const sigterm = performance.now();
  apiProcess.child.kill("SIGTERM");
  const answer = await waiting;
  const answered_s = seconds(sigterm);
  const code = await new Promise<number | null>((resolve) =>
    apiProcess.child.exitCode !== null
      ? resolve(apiProcess.child.exitCode)
      : apiProcess.child.once("exit", (exitCode) => resolve(exitCode)),
  );
  return { answered_s, exited_s: seconds(sigterm), statuses: [answer.status], exit_code: code };
}

const dir = mkdtempSync(join(tmpdir(), "pictor-bench-shutdown-"));
mkdirSync(join(dir, "no-examples"));
const results: Record<string, Run[]> = { embedded: [], scaled_api: [] };
try {
  for (let i = 0; i < RUNS; i++) results.embedded?.push(await embeddedRun(dir));
  const cluster = await startPostgres("bench:shutdown");
  const s3 = cluster ? await startS3("bench:shutdown") : null;
  if (cluster && s3) {
    const running = new Set<import("node:child_process").ChildProcess>();
    try {
      const databaseUrl = await cluster.newDatabase();
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        DATABASE_URL: databaseUrl,
        ...s3Env(s3, "shutdown/"),
        PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
        PICTOR_PUBLIC_URL: "http://127.0.0.1:1",
        PICTOR_DRAIN_DELAY_SECONDS: String(DRAIN_S),
      };
      // The first process migrates; the account is made as an operator would (pictor accounts create).
      const first = await spawnPictor(
        "api",
        ["--port", String(await freePort()), "--workers", "1"],
        env,
        running,
      );
      const config = readServeConfig({ role: "api", data: dir }, env);
      if (config.backend.state !== "postgres") throw new Error("expected PostgreSQL");
      const state = await openScaledState(config, config.backend);
      const { apiKey } = await createAccount(state, { name: "bench", credits: 100 });
      await state.close();
      await first.stop("SIGKILL");
      const port = await freePort();
      const publisher = await spawnPictor("api", ["--port", String(port), "--workers", "1"], env, running);
      await api({ url: `http://127.0.0.1:${port}` }, "POST", "/v1/templates", {
        key: apiKey,
        body: { document: tinyTemplate(), publish: true },
      });
      await publisher.stop("SIGKILL");
      for (let i = 0; i < RUNS; i++) results.scaled_api?.push(await scaledRun(env, apiKey, running));
    } finally {
      for (const child of running) child.kill("SIGKILL");
      await Promise.all([cluster.stop(), s3.stop()]);
    }
  } else {
    console.warn("bench:shutdown: PostgreSQL or Swift not installed; the scaled API case is skipped");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const summary = Object.fromEntries(
  Object.entries(results)
    .filter(([, runs]) => runs.length > 0)
    .map(([name, runs]) => {
      const exitedMedian = median(runs.map((r) => r.exited_s));
      const worst = Math.max(...runs.map((r) => r.exited_s));
      return [
        name,
        {
          answered_s_median: median(runs.map((r) => r.answered_s)),
          exited_s_median: exitedMedian,
          exited_s_max: worst,
          all_answered_200_or_202: runs.every((r) => r.statuses.every((s) => s === 200 || s === 202)),
          all_exit_0: runs.every((r) => r.exit_code === 0),
          within: Object.fromEntries(Object.entries(BUDGETS_S).map(([budget, s]) => [budget, worst < s])),
          runs,
        },
      ];
    }),
);
const out = {
  bench: "shutdown",
  date: new Date().toISOString(),
  drain_delay_s: DRAIN_S,
  embedded_render_held_s: RENDER_HELD_S,
  runs: RUNS,
  budgets_s: BUDGETS_S,
  results: summary,
};
for (const [name, r] of Object.entries(summary)) {
  console.log(
    `${name}: SIGTERM -> answers ${r.answered_s_median} s, exit ${r.exited_s_median} s (median of ${RUNS}, max ${r.exited_s_max} s); drain delay ${DRAIN_S} s; within 60 s: ${r.within.systemd_TimeoutStopSec}, within Docker's default 10 s: ${r.within.docker_default}`,
  );
}
await writeFile(join(benchDir, "results", "shutdown.json"), `${JSON.stringify(out, null, 2)}\n`);
console.log("wrote bench/results/shutdown.json");
