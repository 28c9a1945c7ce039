import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderJobId } from "../../src/adapters/postgres/render-jobs.ts";
import { createAccount } from "../../src/domain/accounts.ts";
import { readServeConfig } from "../../src/main/config.ts";
import { openScaledState } from "../../src/main/scaled-state.ts";
import { api, untilFinished } from "../api/support.ts";
import { pngBytes, upload } from "../assets/support.ts";
import { tinyTemplate } from "../callbacks/support.ts";
import { samples, untilStatus } from "../operations/support.ts";
import { startHeldImage } from "../support/held-image.ts";
import { expectOneRenderTrace, renderTraceArrived, startOtlpReceiver } from "../support/otlp-receiver.ts";
import { startPostgres } from "../support/postgres.ts";
import { s3Env, startS3 } from "../support/s3.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";
import { startReceiver, type TestReceiver } from "../webhooks/support/receiver.ts";
import { freePort, type PictorProcess, spawnPictor } from "./processes.ts";

// Health, readiness and metrics of the scaled roles: an API and a worker process on PostgreSQL and
// S3 (Swift), each reached through a TCP proxy the test cuts as an outage would. Debian's prometheus
// package checks the expositions (promtool) and scrapes a worker for real. Both processes export
// traces to an OTLP/HTTP receiver on loopback.
const SUITE = "scale/operations (PostgreSQL + S3)";
const cluster = await startPostgres(SUITE);
const s3 = cluster ? await startS3(SUITE) : null;
const PROMTOOL = "/usr/bin/promtool";
const PROMETHEUS = "/usr/bin/prometheus";
const havePrometheus = existsSync(PROMTOOL) && existsSync(PROMETHEUS);
if (!havePrometheus && process.env.CI === "true") {
  throw new Error(`${SUITE}: CI=true but Debian's prometheus package (promtool) is not installed`);
}
if (!havePrometheus) {
  console.warn(
    `[skipped] ${SUITE}: promtool and the real scrape need Debian's prometheus (apt-get install prometheus)`,
  );
}

describe.skipIf(!cluster || !s3)("operations of an API and a worker process on PostgreSQL + S3", () => {
  const running = new Set<ChildProcess>();
  const dir = mkdtempSync(join(tmpdir(), "pictor-ops-scale-"));
  let env: NodeJS.ProcessEnv;
  let pgProxy: TcpProxy;
  let s3Proxy: TcpProxy;
  let images: Awaited<ReturnType<typeof startHeldImage>>;
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let callbacks: TestReceiver;
  const callbackSecrets: string[] = [];
  let apiProcess: PictorProcess;
  let worker: PictorProcess;
  let apiUrl: string;
  let workerHealth: string;
  let key: string;
  /** The API's first start on the empty database: the accounts it left, its log line about them. */
  let firstStart: { accounts: number; line: string };

  /** A template whose photo is an image asset of the account, uploaded now (no worker has it cached). */
  const templateWithOwnPhoto = async (templateKey: string) => {
    const uploaded = await upload({ url: apiUrl }, key, await pngBytes(16, "#c33"), {}, "photo.png");
    expect(uploaded.status).toBe(201);
    const document = tinyTemplate(templateKey);
    document.slots[2] = { name: "photo", type: "image", default: uploaded.body.id } as never;
    const published = await api({ url: apiUrl }, "POST", "/v1/templates", {
      key,
      body: { document, publish: true },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
  };

  const startWorker = async (extra: NodeJS.ProcessEnv = {}) => {
    const port = await freePort();
    const child = await spawnPictor(
      "worker",
      ["--workers", "1"],
      { ...env, PICTOR_HEALTH_PORT: String(port), ...extra },
      running,
    );
    return { child, health: `http://127.0.0.1:${port}` };
  };

  beforeAll(async () => {
    if (!cluster || !s3) return;
    const databaseUrl = await cluster.newDatabase();
    const pgPort = Number(new URL(databaseUrl).port);
    pgProxy = await startTcpProxy(pgPort);
    s3Proxy = await startTcpProxy(Number(new URL(s3.endpoint).port));
    images = await startHeldImage();
    otlp = await startOtlpReceiver();
    callbacks = await startReceiver(callbackSecrets);
    const apiPort = await freePort();
    apiUrl = `http://127.0.0.1:${apiPort}`;
    env = {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl.replace(`:${pgPort}/`, `:${pgProxy.port}/`),
      ...s3Env(s3, "ops/", `http://127.0.0.1:${s3Proxy.port}`),
      PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
      PICTOR_PUBLIC_URL: apiUrl,
      PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${images.port},127.0.0.1:${callbacks.port}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      PICTOR_LOG_LEVEL: "info",
      PICTOR_DB_POOL_MAX: "4",
      PICTOR_QUEUE_SUPERVISE_SECONDS: "1",
      // The wrong-secret case waits out every retry: 1-2, 2-4 and 4-8 s instead of the default's double.
      PICTOR_RENDER_RETRY_DELAY_SECONDS: "1",
    };
    const config = readServeConfig({ role: "api", data: dir }, { ...env, DATABASE_URL: databaseUrl });
    if (config.backend.state !== "postgres") throw new Error("expected PostgreSQL");
    apiProcess = await spawnPictor("api", ["--port", String(apiPort), "--workers", "1"], env, running);
    const line = await apiProcess.stderrLine(/no account yet/);
    const state = await openScaledState(config, config.backend);
    firstStart = { accounts: (await state.accounts.list({ limit: 10, after: null })).length, line };
    // As the operator does it (`pictor accounts create`'s library function).
    ({ apiKey: key } = await createAccount(state, { name: "ops", credits: 100 }));
    await state.close();
    const published = await api({ url: apiUrl }, "POST", "/v1/templates", {
      key,
      body: { document: tinyTemplate(), publish: true },
    });
    expect(published.status).toBe(201);
    ({ child: worker, health: workerHealth } = await startWorker());
  }, 120_000);

  afterAll(async () => {
    images?.release();
    await Promise.all(
      [...running].map((child) => {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        return gone;
      }),
    );
    pgProxy?.restore();
    s3Proxy?.restore();
    await pgProxy?.close();
    await s3Proxy?.close();
    await images?.close();
    await otlp?.close();
    await callbacks?.close();
    await Promise.all([cluster?.stop(), s3?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates no account at a first start and prints no key; its log says how to make the first one", () => {
    expect(firstStart.accounts).toBe(0);
    expect(apiProcess.stdout()).toMatch(/Pictor API listening on/);
    expect(apiProcess.stdout()).not.toMatch(/sk_live_|API key|Trial account/);
    expect(JSON.parse(firstStart.line)).toMatchObject({
      level: 40,
      role: "api",
      msg: expect.stringContaining("`pictor accounts create --name <name>`"),
    });
    for (const process of [apiProcess, worker]) expect(process.stderr()).not.toContain("sk_live_");
  });

  it("answers /healthz and /readyz on the API's port and on the worker's health port", async () => {
    for (const base of [apiUrl, workerHealth]) {
      expect((await untilStatus(`${base}/healthz`, 200)).status).toBe(200);
      await untilStatus(`${base}/readyz`, 200);
    }
    const api = await (await fetch(`${apiUrl}/readyz`)).json();
    expect(api).toEqual({ status: "ready", checks: { database: "ok", object_store: "ok" } });
    const rendering = await (await fetch(`${workerHealth}/readyz`)).json();
    expect(rendering).toEqual({
      status: "ready",
      checks: { database: "ok", object_store: "ok", render_threads: "ok" },
    });
  });

  it("counts one render in each role's metrics; promtool accepts both expositions", async () => {
    const scrape = async (base: string) => {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const [apiBefore, workerBefore] = (await Promise.all([scrape(apiUrl), scrape(workerHealth)])).map(
      samples,
    );
    const res = await api({ url: apiUrl }, "POST", "/v1/renders", {
      key,
      body: { template: "tiny", modifications: [], wait: 30 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [apiText, workerText] = await Promise.all([scrape(apiUrl), scrape(workerHealth)]);
    const apiAfter = samples(apiText);
    const workerAfter = samples(workerText);
    const moved = (before: Map<string, number> | undefined, after: Map<string, number>, name: string) =>
      (after.get(name) ?? 0) - (before?.get(name) ?? 0);
    expect(moved(apiBefore, apiAfter, 'pictor_renders_accepted_total{format="png",mode="wait"}')).toBe(1);
    expect(moved(apiBefore, apiAfter, "pictor_credits_charged_total")).toBe(1);
    expect(moved(workerBefore, workerAfter, 'pictor_renders_completed_total{format="png"}')).toBe(1);
    expect(
      moved(
        workerBefore,
        workerAfter,
        'pictor_render_duration_seconds_count{format="png",outcome="completed"}',
      ),
    ).toBe(1);
    for (const phase of ["queue_wait", "draw", "encode", "store"]) {
      expect(moved(workerBefore, workerAfter, `pictor_render_phase_seconds_count{phase="${phase}"}`)).toBe(1);
    }
    expect(apiAfter.get('pictor_info{role="api",version="0.1.0"}')).toBe(1);
    expect(workerAfter.get('pictor_info{role="worker",version="0.1.0"}')).toBe(1);
    expect(workerAfter.get("pictor_render_queue_depth")).toBe(0);
    expect(workerAfter.get("pictor_webhook_outbox_pending")).toBe(0);
    // The API wrote the request's one line, in the workers' format.
    const line = apiProcess
      .stderr()
      .split("\n")
      .find((l) => l.includes(`"reqId":"${res.headers.get("x-request-id")}"`));
    expect(JSON.parse(line ?? "{}")).toMatchObject({
      role: "api",
      msg: "request completed",
      render_id: res.body.id,
    });
    if (!havePrometheus) return;
    for (const exposition of [apiText, workerText]) {
      const checked = await promtoolCheckMetrics(exposition);
      expect(checked.code, checked.output).toBe(0);
    }
  });

  it.skipIf(!havePrometheus)(
    "is scraped by a real Prometheus, which reads pictor_renders_completed_total",
    async () => {
      const promDir = mkdtempSync(join(dir, "prometheus-"));
      const port = await freePort();
      const target = new URL(workerHealth).host;
      writeFileSync(
        join(promDir, "prometheus.yml"),
        `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: pictor-worker\n    static_configs:\n      - targets: ["${target}"]\n`,
      );
      const prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${join(promDir, "prometheus.yml")}`,
          `--storage.tsdb.path=${join(promDir, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      running.add(prometheus);
      let log = "";
      prometheus.stderr?.on("data", (d) => {
        log = (log + d).slice(-5000);
      });
      try {
        const deadline = Date.now() + 60_000;
        let value: number | null = null;
        while (value === null) {
          if (Date.now() > deadline) throw new Error(`Prometheus never read the metric:\n${log}`);
          const res = await fetch(
            `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent('sum(pictor_renders_completed_total{job="pictor-worker"})')}`,
          ).catch(() => null);
          const body = (await res?.json().catch(() => null)) as {
            data?: { result?: { value: [number, string] }[] };
          } | null;
          const found = body?.data?.result?.[0]?.value[1];
          if (found !== undefined) value = Number(found);
          else await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(value).toBeGreaterThanOrEqual(1);
      } finally {
        const gone = new Promise((resolve) => prometheus.once("exit", resolve));
        prometheus.kill("SIGTERM");
        await gone;
        running.delete(prometheus);
      }
    },
  );

  it("sends one trace per render across both processes: request, charge, queue, draw, encode, store, callback", async () => {
    callbackSecrets.push((await api({ url: apiUrl }, "GET", "/v1/webhook-secret", { key })).body.secret);
    const res = await api({ url: apiUrl }, "POST", "/v1/renders", {
      key,
      body: { template: "tiny", modifications: [], webhook_url: callbacks.url("/hook"), wait: 30 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await callbacks.waitForRequest(1);
    await otlp.until((spans) => renderTraceArrived(spans, res.body.id));
    const spans = expectOneRenderTrace(otlp.spans(), res.body.id);
    // The context crossed the pg-boss job (API to worker) and the outbox (the worker's deliverer).
    for (const name of ["POST /v1/renders", "render.accept", "render.charge"]) {
      expect(spans.get(name)?.role, name).toBe("api");
    }
    for (const name of [
      "render.run",
      "render.queue_wait",
      "render.draw",
      "render.store",
      "webhook.deliver",
    ]) {
      expect(spans.get(name)?.role, name).toBe("worker");
    }
  });

  it("answers /readyz 503 while PostgreSQL is unreachable and 200 once it is back, in both roles", async () => {
    pgProxy.cut();
    try {
      for (const base of [apiUrl, workerHealth]) {
        const down = await untilStatus(`${base}/readyz`, 503);
        expect(await down.json()).toMatchObject({ status: "not_ready", checks: { database: "failing" } });
        // Alive all the same: nothing here is for a liveness probe to restart.
        const alive = await fetch(`${base}/healthz`);
        expect(alive.status).toBe(200);
        await alive.body?.cancel();
      }
    } finally {
      pgProxy.restore();
    }
    for (const base of [apiUrl, workerHealth]) await untilStatus(`${base}/readyz`, 200);
  });

  it("answers /readyz 503 while the object store is unreachable and 200 once it is back, in both roles", async () => {
    s3Proxy.cut();
    try {
      for (const base of [apiUrl, workerHealth]) {
        const down = await untilStatus(`${base}/readyz`, 503);
        expect(await down.json()).toMatchObject({ status: "not_ready", checks: { object_store: "failing" } });
      }
    } finally {
      s3Proxy.restore();
    }
    for (const base of [apiUrl, workerHealth]) await untilStatus(`${base}/readyz`, 200);
    expect(worker.stderr()).toMatch(/"msg":"not ready: object_store: object store not reachable/);
  });

  it("a worker told to stop answers /readyz 503 at once, finishes its render and logs it, then exits", async () => {
    const accepted = await api({ url: apiUrl }, "POST", "/v1/renders", {
      key,
      body: { template: "tiny", modifications: [{ name: "photo", image_url: images.url }] },
    });
    expect(accepted.status).toBe(202);
    await images.requested;
    worker.child.kill("SIGTERM");
    const draining = await untilStatus(`${workerHealth}/readyz`, 503);
    expect(await draining.json()).toMatchObject({ status: "draining" });
    images.release();
    // Its own exit (stop() would signal it again: a second SIGTERM is not handled).
    const [code] = await new Promise<[number | null, string | null]>((resolve) =>
      worker.child.exitCode !== null
        ? resolve([worker.child.exitCode, null])
        : worker.child.once("exit", (exitCode, signal) => resolve([exitCode, signal])),
    );
    expect(code).toBe(0);
    expect((await untilFinished({ url: apiUrl }, key, accepted.body.id)).status).toBe("completed");
    const lines = worker
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const pid = worker.child.pid;
    expect(lines.find((l) => l.render_id === accepted.body.id)).toMatchObject({
      msg: "render completed",
      role: "worker",
      pid,
      format: "png",
    });
    expect(lines.find((l) => l.msg === "stopping")).toMatchObject({ role: "worker", pid, signal: "SIGTERM" });
    expect(lines.find((l) => l.msg === "stopped")).toMatchObject({ role: "worker", pid });
    for (const line of lines) expect(typeof line.time).toBe("number");
    expect(worker.stderr()).not.toContain(String(env.S3_SECRET_ACCESS_KEY));
  });

  it("an API process told to stop answers a caller waiting for a queued render 202 with its URL, and exits", async () => {
    // No worker runs now (the one above stopped): the render stays queued, as behind a long backlog.
    const port = await freePort();
    const second = await spawnPictor("api", ["--port", String(port), "--workers", "1"], env, running);
    const base = { url: `http://127.0.0.1:${port}` };
    const waiting = api(base, "POST", "/v1/renders", {
      key,
      body: { template: "tiny", modifications: [{ name: "title", text: "queued" }], wait: 60 },
    });
    await untilQueued(base);
    const sigterm = performance.now();
    second.child.kill("SIGTERM");
    const answer = await waiting;
    const answered = (performance.now() - sigterm) / 1000;
    // Its own exit (stop() would signal it again: a second SIGTERM is not handled).
    const code = await new Promise<number | null>((resolve) =>
      second.child.exitCode !== null
        ? resolve(second.child.exitCode)
        : second.child.once("exit", (exitCode) => resolve(exitCode)),
    );
    const exited = (performance.now() - sigterm) / 1000;
    expect(code).toBe(0);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.headers.get("location")).toBe(`/v1/renders/${answer.body.id}`);
    expect(answer.body.status).toBe("queued");
    console.log(
      `API SIGTERM with a queued wait render: answered 202 after ${answered.toFixed(2)} s, exited after ${exited.toFixed(2)} s`,
    );
  });

  it("a first start with a bucket that does not exist fails before it changes the database", async () => {
    const fresh = await (cluster as NonNullable<typeof cluster>).newDatabase();
    const started = spawnPictor(
      "api",
      ["--port", String(await freePort()), "--workers", "1"],
      { ...env, DATABASE_URL: fresh, S3_BUCKET: "no-such-bucket" },
      running,
    );
    await expect(started).rejects.toThrow(
      /exited \(1\): pictor: the object store answered that bucket no-such-bucket does not exist \(HTTP 404\)/,
    );
    const db = new pg.Client({ connectionString: fresh });
    await db.connect();
    try {
      // Neither Pictor's tables nor pg-boss's schema.
      const made = await db.query(
        "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
      );
      expect(made.rows).toEqual([]);
      const schemas = await db.query(
        "SELECT schema_name FROM information_schema.schemata WHERE schema_name NOT LIKE 'pg\\_%' AND schema_name NOT IN ('information_schema', 'public')",
      );
      expect(schemas.rows).toEqual([]);
    } finally {
      await db.end();
    }
  });

  it("a worker with a wrong S3 secret is not ready, says why, and fails renders as internal_error after retries", async () => {
    await templateWithOwnPhoto("own-photo");
    const wrong = await startWorker({ S3_SECRET_ACCESS_KEY: "not-the-secret" });
    try {
      const res = await untilStatus(`${wrong.health}/readyz`, 503);
      expect(await res.json()).toMatchObject({ status: "not_ready", checks: { object_store: "failing" } });
      expect(wrong.child.stderr()).toContain("refused these credentials (HTTP 403)");
      // Its renders are the deployment's fault, not the caller's: run again, and once the retries are
      // spent, failed as internal_error and refunded (never image_fetch_failed, which blames the image).
      const accepted = await api({ url: apiUrl }, "POST", "/v1/renders", {
        key,
        body: { template: "own-photo", modifications: [] },
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
      const failed = await untilFinished({ url: apiUrl }, key, accepted.body.id, 90_000);
      expect(failed).toMatchObject({
        status: "failed",
        error: { code: "internal_error" },
        credits_charged: 1,
        credits_refunded: 1,
      });
      const retried = wrong.child
        .stderr()
        .split("\n")
        .filter((line) => line.includes("render inputs unreadable") && line.includes(accepted.body.id));
      expect(retried.length).toBeGreaterThan(1);
      expect(retried[0]).toContain("reading the image from the object store");
      // Every retry was spent, each after PICTOR_RENDER_RETRY_DELAY_SECONDS' backoff.
      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      try {
        const job = await db.query("SELECT retry_count, retry_delay FROM pgboss.job WHERE id = $1", [
          renderJobId(accepted.body.id),
        ]);
        expect(job.rows).toEqual([{ retry_count: 3, retry_delay: 1 }]);
      } finally {
        await db.end();
      }
      expect(wrong.child.stderr()).not.toContain("not-the-secret");
    } finally {
      await wrong.child.stop("SIGKILL");
    }
  }, 150_000);
});

/** Until the API process at `base` has accepted a wait render (charged and queued in one commit). */
async function untilQueued(base: { url: string }): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${base.url}/metrics`);
    const accepted = samples(await res.text()).get('pictor_renders_accepted_total{format="png",mode="wait"}');
    if (accepted === 1) return;
    if (Date.now() > deadline) throw new Error("the wait render was not accepted");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function promtoolCheckMetrics(exposition: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(PROMTOOL, ["check", "metrics"], (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
    child.stdin?.end(exposition);
  });
}
