import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { PgBoss } from "pg-boss";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RENDER_QUEUE } from "../../src/adapters/postgres/render-jobs.ts";
import { createAccount } from "../../src/domain/accounts.ts";
import { readServeConfig } from "../../src/main/config.ts";
import { openScaledState } from "../../src/main/scaled-state.ts";
import { api } from "../api/support.ts";
import { closedPort, tinyTemplate } from "../callbacks/support.ts";
import { startPostgres } from "../support/postgres.ts";
import { s3Env, startS3 } from "../support/s3.ts";
import { startReceiver, type TestReceiver } from "../webhooks/support/receiver.ts";
import { freePort, type PictorProcess, spawnPictor } from "./processes.ts";

// Issue 7 acceptance: two API and three worker processes on loopback behind one PostgreSQL and one
// S3 (Swift), a mixed load, one worker SIGKILLed mid-render, one API process restarted.
const SUITE = "scale/multi-process (PostgreSQL + S3)";
const cluster = await startPostgres(SUITE);
const s3 = cluster ? await startS3(SUITE) : null;

// A render held by a SIGKILLed worker comes back after the job's expiry plus a supervise pass and the
// first retry delay: here 5 + 1 + 2 s instead of production's 60 + 10 + 2 s (render-jobs.ts).
const TEST_EXPIRY_SECONDS = 5;
const SETTLE_DEADLINE_MS = 90_000;

/** Image origin whose /gate.png answers only once released: renders fetching it are held mid-render. */
async function startGatedImages() {
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#0a7" } })
    .png()
    .toBuffer();
  const held: ServerResponse[] = [];
  const heldWaiters: { count: number; resolve(): void }[] = [];
  let open = false;
  const send = (res: ServerResponse) =>
    res.writeHead(200, { "content-type": "image/png", "content-length": png.length }).end(png);
  const server = createServer((req, res) => {
    if (req.url === "/photo.png") return send(res);
    if (req.url !== "/gate.png") return void res.writeHead(404).end();
    if (open) return send(res);
    held.push(res);
    for (const w of heldWaiters.filter((w) => held.length >= w.count)) w.resolve();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** Resolves once `count` requests for /gate.png are being held. */
    held: (count: number) =>
      new Promise<void>((resolve) => {
        if (held.length >= count) resolve();
        else heldWaiters.push({ count, resolve });
      }),
    release() {
      open = true;
      for (const res of held.splice(0)) send(res);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.skipIf(!cluster || !s3)("two API and three worker processes on one PostgreSQL + S3", () => {
  const running = new Set<ChildProcess>();
  const dir = mkdtempSync(join(tmpdir(), "pictor-scale-"));
  let databaseUrl: string;
  let env: NodeJS.ProcessEnv;
  let images: Awaited<ReturnType<typeof startGatedImages>>;
  let receiver: TestReceiver;
  const secrets: string[] = [];
  let deadPort: number;
  let apiPorts: number[];
  const apis: PictorProcess[] = [];
  const workers: PictorProcess[] = [];
  let db: pg.Client;

  const startApi = (i: number) =>
    spawnPictor("api", ["--port", String(apiPorts[i]), "--workers", "1"], env, running);
  const startWorker = () => spawnPictor("worker", ["--workers", "1"], env, running);

  beforeAll(async () => {
    if (!cluster || !s3) return;
    databaseUrl = await cluster.newDatabase();
    images = await startGatedImages();
    receiver = await startReceiver(secrets);
    deadPort = await closedPort();
    apiPorts = [await freePort(), await freePort()];
    env = {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      ...s3Env(s3, "scale/"),
      PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
      PICTOR_PUBLIC_URL: `http://127.0.0.1:${apiPorts[0]}`,
      PICTOR_OUTBOUND_ALLOWLIST: [images.port, receiver.port, deadPort]
        .map((p) => `127.0.0.1:${p}`)
        .join(","),
      PICTOR_LOG_LEVEL: "warn",
      PICTOR_RATE_LIMIT_BURST: "100000",
      PICTOR_DB_POOL_MAX: "4",
      PICTOR_QUEUE_SUPERVISE_SECONDS: "1",
      // Each gated render below must hold a different worker's only thread; a worker that judged the
      // queue backlogged (a slow start on this machine) could take two of them.
      PICTOR_WORKER_PREFETCH: "false",
    };
    // The first API process migrates and creates the render queue; the expiry is shortened before any
    // job exists (pg-boss copies it into each job at send).
    apis.push(await startApi(0));
    const boss = new PgBoss({ connectionString: databaseUrl, max: 1, supervise: false, schedule: false });
    boss.on("error", () => {});
    await boss.start();
    await boss.updateQueue(RENDER_QUEUE, { expireInSeconds: TEST_EXPIRY_SECONDS });
    await boss.stop({ graceful: false });
    apis.push(await startApi(1));
    workers.push(...(await Promise.all([startWorker(), startWorker(), startWorker()])));
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    // Whatever a failed test left running is killed; each exit is awaited before the cluster stops.
    await Promise.all(
      [...running].map((child) => {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        return gone;
      }),
    );
    await db?.end();
    await images?.close();
    await receiver?.close();
    await Promise.all([cluster?.stop(), s3?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("every accepted render ends completed or failed-and-refunded exactly once, every callback delivered, the ledger balanced", async () => {
    const urlOf = (i: number) => `http://127.0.0.1:${apiPorts[i % 2]}`;
    const on = (i: number) => ({ url: urlOf(i) });

    // The test's own connection, as an operator's tooling would have: one account with 500 credits.
    const config = readServeConfig({ role: "api", data: dir }, env);
    if (config.backend.state !== "postgres") throw new Error("expected PostgreSQL");
    const state = await openScaledState(config, config.backend);
    const { accountId, apiKey: key } = await createAccount(state, { name: "scale", credits: 500 });
    await state.close();
    secrets.push((await api(on(0), "GET", "/v1/webhook-secret", { key })).body.secret);
    expect(
      (await api(on(1), "POST", "/v1/templates", { key, body: { document: tinyTemplate(), publish: true } }))
        .status,
    ).toBe(201);

    const accepted = new Set<string>();
    const hook = (path: string) => receiver.url(path);
    const single = async (i: number, body: Record<string, unknown>) => {
      const res = await api(on(i), "POST", "/v1/renders", { key, body: { template: "tiny", ...body } });
      const id = res.body.id ?? res.body.error?.render_id;
      expect([200, 202, 422], JSON.stringify(res.body)).toContain(res.status);
      accepted.add(id);
      return res;
    };
    const batch = async (i: number, rows: number) => {
      const res = await api(on(i), "POST", "/v1/renders/batch", {
        key,
        body: {
          webhook_url: hook("/batch"),
          renders: Array.from({ length: rows }, (_, r) => ({
            template: "tiny",
            modifications: [{ name: "title", text: `b${i}-${r}` }],
          })),
        },
      });
      expect(res.status).toBe(202);
      for (const r of res.body.renders) accepted.add(r.id);
    };
    /** Polls one render through the other API process until it is final. */
    const poll = async (i: number, id: string) => {
      const deadline = Date.now() + SETTLE_DEADLINE_MS;
      for (;;) {
        const res = await api(on(i + 1), "GET", `/v1/renders/${id}`, { key });
        if (res.body.status === "completed" || res.body.status === "failed") return res.body;
        if (Date.now() > deadline) throw new Error(`render ${id} still ${res.body.status}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const mixedLoad = async (tag: string) => {
      const waits = Array.from({ length: 4 }, (_, i) =>
        single(i, { wait: true, modifications: [{ name: "title", text: `${tag} wait ${i}` }] }).then(
          (res) => {
            expect(res.status).toBe(200);
            expect(res.body.status).toBe("completed");
          },
        ),
      );
      const asyncs = Array.from({ length: 8 }, (_, i) =>
        single(i, {
          webhook_url: hook(`/single/${tag}/${i}`),
          modifications: [
            { name: "title", text: `${tag} async ${i}` },
            { name: "photo", image_url: images.url("/photo.png") },
          ],
        }).then((res) => poll(i, res.body.id)),
      );
      const failing = Array.from({ length: 2 }, (_, i) =>
        single(i, {
          webhook_url: hook(`/failing/${tag}/${i}`),
          modifications: [{ name: "photo", image_url: `http://127.0.0.1:${deadPort}/x.png` }],
        }).then((res) => poll(i, res.body.id)),
      );
      await Promise.all([...waits, ...asyncs, ...failing, batch(0, 15), batch(1, 15)]);
    };

    await mixedLoad("before");

    // Three renders that each hold one worker process's only render thread mid-render (their image
    // does not arrive); the worker holding the first gated fetch to arrive is killed outright.
    const gated = await Promise.all(
      [0, 1, 2].map((i) =>
        single(i, {
          webhook_url: hook(`/gated/${i}`),
          modifications: [{ name: "photo", image_url: images.url("/gate.png") }],
        }),
      ),
    );
    await images.held(3);
    const [victim] = workers.splice(0, 1) as [PictorProcess];
    await victim.stop("SIGKILL");
    expect(victim.child.signalCode).toBe("SIGKILL");
    // Renders accepted while every remaining thread is busy and one API process restarts.
    const queuedMeanwhile = Array.from({ length: 6 }, (_, i) =>
      single(0, { webhook_url: hook(`/meanwhile/${i}`), modifications: [{ name: "title", text: `m${i}` }] }),
    );
    const restarting = apis.splice(1, 1)[0] as PictorProcess;
    await restarting.stop("SIGTERM");
    expect(restarting.child.exitCode).toBe(0);
    apis.push(await startApi(1));
    await Promise.all(queuedMeanwhile);
    images.release();

    await mixedLoad("after");
    for (const [i, res] of gated.entries()) expect((await poll(i, res.body.id)).status).toBe("completed");
    // The killed worker's render came back through pg-boss's expiry and retry, not by luck.
    const { rows: retried } = await db.query(
      "SELECT data->>'renderId' AS id FROM pgboss.job WHERE name = $1 AND retry_count > 0",
      [RENDER_QUEUE],
    );
    // (Workers complete finished jobs in pg-boss together, every half second: a job the victim had just
    // finished may come back too, and find its render ended; the checks below see it ran once.)
    const retriedIds = retried.map((r) => r.id);
    expect(gated.some((g) => retriedIds.includes(g.body.id))).toBe(true);

    // Settled: nothing queued or rendering, and no callback left to deliver (poll with a deadline).
    const deadline = Date.now() + SETTLE_DEADLINE_MS;
    for (;;) {
      const { rows } = await db.query(
        `SELECT (SELECT count(*) FROM renders WHERE status NOT IN ('completed', 'failed'))::int AS open,
                (SELECT count(*) FROM webhook_events WHERE state <> 'delivered')::int AS undelivered`,
      );
      if (rows[0].open === 0 && rows[0].undelivered === 0) break;
      if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(rows[0])}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const { rows: renders } = await db.query(
      `SELECT r.id, r.status, r.webhook_url, r.credits_charged,
              (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.render_id = r.id AND l.kind = 'refund')::int AS credits_refunded,
              (SELECT count(*) FROM ledger l WHERE l.render_id = r.id AND l.kind = 'charge')::int AS charges,
              (SELECT count(*) FROM ledger l WHERE l.render_id = r.id AND l.kind = 'refund')::int AS refunds,
              (SELECT count(*) FROM assets a WHERE a.render_id = r.id)::int AS assets,
              (SELECT count(*) FROM webhook_events e WHERE e.render_id = r.id AND e.state = 'delivered')::int AS delivered
         FROM renders r WHERE r.account_id = $1`,
      [accountId],
    );
    // 2 x (4 wait + 8 async + 2 failing + 30 batch rows) + 3 gated + 6 accepted meanwhile.
    expect(renders).toHaveLength(2 * 44 + 3 + 6);
    expect(new Set(renders.map((r) => r.id))).toEqual(accepted);
    for (const r of renders) {
      const where = `render ${r.id} (${r.status})`;
      expect(r.charges, where).toBe(1);
      if (r.status === "completed") {
        expect([r.refunds, r.assets, r.credits_refunded], where).toEqual([0, 1, 0]);
        expect(r.delivered, where).toBe(r.webhook_url ? 1 : 0);
      } else {
        expect(r.status, where).toBe("failed");
        expect([r.refunds, r.assets, r.credits_refunded, r.delivered], where).toEqual([
          1,
          0,
          r.credits_charged,
          0,
        ]);
      }
    }
    expect(renders.filter((r) => r.status === "failed")).toHaveLength(4);

    // Every delivered event reached the receiver, signed; a redelivery after a crash repeats the same bytes.
    const bodies = new Map<string, Set<string>>();
    for (const c of receiver.received) {
      expect(c.verifiedByClient).toBe(true);
      const id = JSON.parse(c.rawBody.toString("utf8")).id as string;
      bodies.set(id, (bodies.get(id) ?? new Set()).add(c.rawBody.toString("utf8")));
    }
    const withCallback = renders.filter((r) => r.status === "completed" && r.webhook_url);
    expect(new Set(bodies.keys())).toEqual(new Set(withCallback.map((r) => r.id)));
    for (const sent of bodies.values()) expect(sent.size).toBe(1);

    // The ledger balances: grants - charges + refunds = the balance the API reports, never below zero.
    const { rows: sums } = await db.query(
      `SELECT kind, sum(abs(amount))::int AS total FROM ledger WHERE account_id = $1 GROUP BY kind`,
      [accountId],
    );
    const total = (kind: string) => sums.find((s) => s.kind === kind)?.total ?? 0;
    const balance = (await api(on(1), "GET", "/v1/account", { key })).body.credits_balance;
    expect(total("grant") - total("charge") + total("refund")).toBe(balance);
    expect(balance).toBe(500 - renders.length + 4);
    expect(balance).toBeGreaterThanOrEqual(0);

    // An output written by a worker is served from S3 through either API process.
    const done = renders.find((r) => r.status === "completed");
    const view = (await api(on(0), "GET", `/v1/renders/${done?.id}`, { key })).body;
    const image = await fetch(view.output_url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
  }, 240_000);
});
