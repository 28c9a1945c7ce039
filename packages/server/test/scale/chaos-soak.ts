/**
 * Issue 21, the chaos soak of the scaled-out mode: API and worker processes on one PostgreSQL and one
 * S3 (Swift) under a mixed load (single, wait-mode and batch renders, callbacks to a loopback
 * receiver, renders that fail and are refunded, retried Idempotency-Keys) for a bounded time, while
 * API and worker processes are SIGKILLed and restarted at random and PostgreSQL is restarted once.
 * A share of the requests (`hostile`, on by default) are a hostile tenant's heaviest, from an account
 * of its own (test/hostile/hostile-mix.ts: 8000x8000 frames with shadows, PDFs of 20 pages, downloads
 * and editor images at the 16-megapixel cap that are never read, distinct on-demand URLs); every
 * process has a memory budget of 1024 MiB, which the cost model's refusals come from.
 * Then a checker in the spirit of Jepsen's bank test reads what the system did and lists every
 * violation of its guarantees (an empty list is a pass):
 * - every render the clients saw accepted exists, and every render ended: completed, or failed and
 *   refunded, exactly once; no render was charged twice; no completed render was refunded;
 * - per account, grants - charges + refunds equals the balance, which is never below zero;
 * - every completed render with a webhook_url had its callback delivered at least once, every
 *   delivery verified against the account's secret, and a failed render sent none;
 * - every completed render's output object is in the store, and its asset row exists (an on-demand
 *   URL's render may have lost both to its account's render cache, which drops the least recently
 *   used outputs beyond PICTOR_IMAGE_CACHE_MAX_BYTES: none is allowed there, two never).
 * Every random choice (request mix, victims, timings) comes from one seed, printed so that a failing
 * run can be replayed with `npm run soak -- --seed N` (timings on a loaded machine still differ).
 * Used by chaos-soak.test.ts (short, in CI) and scripts/soak.ts (`npm run soak`, longer).
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { RENDER_QUEUE } from "../../src/adapters/postgres/render-jobs.ts";
import { createAccount } from "../../src/domain/accounts.ts";
import { readServeConfig } from "../../src/main/config.ts";
import { openScaledState } from "../../src/main/scaled-state.ts";
import { closedPort, tinyTemplate } from "../callbacks/support.ts";
import {
  createUrlSigner,
  HOSTILE_RENDERS,
  type HostileAccount,
  hostileImagePath,
  makeNoisePhoto,
  PART,
  prepareAtCap,
  seedHostileAccount,
  stalledDownload,
  stalledPrepare,
  type Tally,
  type UrlSigner,
} from "../hostile/hostile-mix.ts";
import { startPostgres } from "../support/postgres.ts";
import { s3Env, startS3 } from "../support/s3.ts";
import { seededRandom } from "../support/seeded-random.ts";
import { startReceiver } from "../webhooks/support/receiver.ts";
import { freePort, type PictorProcess, spawnPictor } from "./processes.ts";

export interface SoakOptions {
  seed: number;
  /** How long the load and the faults run; then everything settles and the checker reads. */
  durationMs: number;
  apiProcesses?: number;
  workerProcesses?: number;
  /** Concurrent clients sending requests back to back. */
  clients?: number;
  /** A process is killed every this many ms on average (uniform from half to one and a half). */
  killEveryMs?: number;
  /** How long the settling may take before it counts as a violation. */
  settleDeadlineMs?: number;
  /** Whether a share of the requests are the hostile tenant's (hostile-mix.ts); default true. */
  hostile?: boolean;
  log?: (line: string) => void;
}

export interface SoakReport {
  seed: number;
  durationMs: number;
  requests: { sent: number; accepted: number; refused402: number; failedOrUnavailable: number };
  renders: {
    total: number;
    completed: number;
    failed: number;
    retriedJobs: number;
    /** Completed renders of on-demand URLs whose output the account's render cache has dropped since. */
    evictedOnDemand: number;
  };
  faults: {
    apiKills: number;
    workerKills: number;
    restarts: number;
    postgresRestarts: number;
    /** Starts that failed (PostgreSQL was restarting) and were tried again. */
    failedStarts: number;
    /** Processes that exited without being killed (a crash: each one is also a violation). */
    unexpectedExits: number;
  };
  callbacks: { expected: number; deliveries: number };
  /** The hostile tenant's requests by part, their answers by status (and error code). */
  hostile: Record<string, Tally>;
  settleMs: number;
  violations: string[];
}

/** The expiry of a render job held by a killed worker, shortened for the soak (production: 60 s). */
const SOAK_JOB_EXPIRY_SECONDS = 5;
/** The share of the clients' requests that are the hostile tenant's. */
const HOSTILE_SHARE = 0.15;
/** At most this many of the hostile tenant's clients that never read are open at once (as in the mix). */
const HELD_DOWNLOADS = 16;
const HELD_PREPARES = 4;

export async function runChaosSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const rng = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
  const between = (lo: number, hi: number) => lo + rng() * (hi - lo);
  const apiCount = options.apiProcesses ?? 2;
  const workerCount = options.workerProcesses ?? 2;
  const clients = options.clients ?? 6;
  const killEveryMs = options.killEveryMs ?? 3000;
  const hostile = options.hostile ?? true;

  const cluster = await startPostgres("chaos soak");
  const s3 = cluster ? await startS3("chaos soak") : null;
  if (!cluster || !s3) {
    await cluster?.stop();
    throw new Error("the chaos soak needs PostgreSQL and Swift (scripts/ci-services.sh)");
  }
  const running = new Set<ChildProcess>();
  const dir = mkdtempSync(join(tmpdir(), "pictor-soak-"));
  const secrets: string[] = [];
  const receiver = await startReceiver(secrets);
  const deadPort = await closedPort();
  const report: SoakReport = {
    seed: options.seed,
    durationMs: options.durationMs,
    requests: { sent: 0, accepted: 0, refused402: 0, failedOrUnavailable: 0 },
    renders: { total: 0, completed: 0, failed: 0, retriedJobs: 0, evictedOnDemand: 0 },
    faults: {
      apiKills: 0,
      workerKills: 0,
      restarts: 0,
      postgresRestarts: 0,
      failedStarts: 0,
      unexpectedExits: 0,
    },
    callbacks: { expected: 0, deliveries: 0 },
    hostile: {},
    settleMs: 0,
    violations: [],
  };
  const violation = (text: string) => {
    if (report.violations.length < 200) report.violations.push(text);
  };
  let db: pg.Client | null = null;
  try {
    const databaseUrl = await cluster.newDatabase();
    // The shared test cluster runs with synchronous_commit off (speed); a commit acknowledged there
    // can vanish in the crash restart below, which is no guarantee of Pictor's to check. Production
    // runs with it on (docs/deploy.md), and so does the soak's database.
    {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      try {
        const name = new URL(databaseUrl).pathname.slice(1);
        await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(name)} SET synchronous_commit = on`);
      } finally {
        await admin.end();
      }
    }
    const apiPorts = await Promise.all(Array.from({ length: apiCount }, () => freePort()));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      ...s3Env(s3, "soak/"),
      PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
      PICTOR_PUBLIC_URL: `http://127.0.0.1:${apiPorts[0]}`,
      PICTOR_OUTBOUND_ALLOWLIST: [receiver.port, deadPort].map((p) => `127.0.0.1:${p}`).join(","),
      PICTOR_LOG_LEVEL: "warn",
      PICTOR_RATE_LIMIT_BURST: "100000",
      PICTOR_DB_POOL_MAX: "4",
      PICTOR_QUEUE_SUPERVISE_SECONDS: "1",
      ...(hostile ? { PICTOR_MEMORY_BUDGET: "1024" } : {}),
    };

    // Slots by role; a killed process leaves its slot empty until its restart.
    const apis: (PictorProcess | null)[] = Array.from({ length: apiCount }, () => null);
    const workers: (PictorProcess | null)[] = Array.from({ length: workerCount }, () => null);
    const killed = new Set<PictorProcess>();
    const watch = (p: PictorProcess) => {
      p.child.once("exit", (code, signal) => {
        if (killed.has(p) || stopping) return;
        report.faults.unexpectedExits++;
        violation(`${p.role} process exited by itself (${code ?? signal}): ${p.stderr().slice(-1500)}`);
      });
      return p;
    };
    let stopping = false;
    const startApi = async (i: number) => {
      apis[i] = watch(
        await spawnPictor("api", ["--port", String(apiPorts[i]), "--workers", "1"], env, running),
      );
    };
    const startWorker = async (i: number) => {
      workers[i] = watch(await spawnPictor("worker", ["--workers", "1"], env, running));
    };

    // The first API process migrates and creates the queue; the job expiry is shortened before any
    // job exists (pg-boss copies it into each job when it is sent).
    await startApi(0);
    const boss = new PgBoss({ connectionString: databaseUrl, max: 1, supervise: false, schedule: false });
    boss.on("error", () => {});
    await boss.start();
    await boss.updateQueue(RENDER_QUEUE, { expireInSeconds: SOAK_JOB_EXPIRY_SECONDS });
    await boss.stop({ graceful: false });
    await Promise.all([
      ...apis.map((_, i) => (i === 0 ? null : startApi(i))),
      ...workers.map((_, i) => startWorker(i)),
    ]);

    // Three accounts: two with credits to spare, one that runs out (its renders meet 402s).
    const config = readServeConfig({ role: "api", data: dir }, env);
    if (config.backend.state !== "postgres") throw new Error("expected PostgreSQL");
    const state = await openScaledState(config, config.backend);
    const accounts: { id: string; key: string }[] = [];
    for (const credits of [100_000, 100_000, 40]) {
      const { accountId, apiKey } = await createAccount(state, { name: `soak-${credits}`, credits });
      accounts.push({ id: accountId, key: apiKey });
      secrets.push((await state.accounts.webhookSecret(accountId)) as string);
    }
    // The hostile tenant: an account of its own, counted by the checker like the others.
    let attacker: (HostileAccount & { id: string; signer: UrlSigner }) | null = null;
    if (hostile) {
      const seeded = await seedHostileAccount(state, await makeNoisePhoto());
      const signer = await createUrlSigner(`http://127.0.0.1:${apiPorts[0]}`, seeded);
      attacker = { ...seeded, id: seeded.accountId, signer };
    }
    await state.close();
    for (const account of accounts) {
      const res = await call(apiPorts[0] as number, "POST", "/v1/templates", account.key, {
        document: tinyTemplate(),
        publish: true,
      });
      if (res.status !== 201) throw new Error(`template not published: ${res.status} ${res.text}`);
    }
    log(
      `soak seed ${options.seed}: ${apiCount} API + ${workerCount} worker processes, ${clients} clients${hostile ? `, ${HOSTILE_SHARE * 100} % of requests a hostile tenant's` : ""}`,
    );

    // The clients: a request mix from the seed, to any API process (a killed one refuses: counted).
    const accepted = new Set<string>();
    const deadline = Date.now() + options.durationMs;
    let sequence = 0;
    const render = (tag: string, failing: boolean) => ({
      template: "tiny",
      modifications: [
        { name: "title", text: tag },
        ...(failing ? [{ name: "photo", image_url: `http://127.0.0.1:${deadPort}/gone.png` }] : []),
      ],
    });
    // The hostile tenant's requests: one at a time from a client, the part chosen by the seed.
    const held = { downloads: new Set<Socket>(), prepares: new Set<Socket>() };
    const tally = (part: string, outcome: string) => {
      const t = report.hostile[part] ?? {};
      t[outcome] = (t[outcome] ?? 0) + 1;
      report.hostile[part] = t;
    };
    const hostileRequest = async (attacker: HostileAccount & { signer: UrlSigner }, n: number) => {
      const port = pick(apiPorts);
      const base = `http://127.0.0.1:${port}`;
      const parts = [...HOSTILE_RENDERS.map((r) => r.part), ...Object.values(PART)];
      const part = pick(parts);
      const render = HOSTILE_RENDERS.find((r) => r.part === part);
      if (render) {
        const res = await call(port, "POST", "/v1/renders", attacker.apiKey, { ...render.body, wait: 20 });
        const code = (res.json?.error as { code?: string } | undefined)?.code;
        tally(part, `${res.status}${code ? ` ${code}` : ""}`);
        if ((res.status === 200 || res.status === 202) && res.json?.id) accepted.add(String(res.json.id));
        const failedId = (res.json?.error as { render_id?: string } | undefined)?.render_id;
        if (failedId) accepted.add(failedId);
        if (res.status === 0) await new Promise((r) => setTimeout(r, 50));
        return;
      }
      // Clients that never read: held until the load ends (a killed API process drops them sooner).
      const set =
        part === PART.downloads ? held.downloads : part === PART.prepareUnread ? held.prepares : null;
      if (set) {
        if (set.size >= (set === held.downloads ? HELD_DOWNLOADS : HELD_PREPARES)) {
          tally(part, "not sent: enough held");
          return;
        }
        try {
          const { socket, status } = await (set === held.downloads ? stalledDownload : stalledPrepare)(
            base,
            attacker,
          );
          tally(part, status);
          set.add(socket);
          socket.once("close", () => set.delete(socket));
        } catch {
          tally(part, "0");
          await new Promise((r) => setTimeout(r, 50));
        }
        return;
      }
      try {
        const res =
          part === PART.prepare
            ? await fetch(`${base}/v1/editor/prepare-image`, {
                method: "POST",
                headers: { authorization: `Bearer ${attacker.apiKey}`, "content-type": "application/json" },
                body: prepareAtCap(attacker),
                signal: AbortSignal.timeout(60_000),
              })
            : await fetch(`${base}${await hostileImagePath(attacker.signer, `soak ${options.seed} ${n}`)}`, {
                signal: AbortSignal.timeout(60_000),
              });
        await res.arrayBuffer();
        tally(part, String(res.status));
      } catch {
        tally(part, "0");
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const client = async (c: number) => {
      while (Date.now() < deadline) {
        const n = sequence++;
        if (attacker && rng() < HOSTILE_SHARE) {
          await hostileRequest(attacker, n);
          continue;
        }
        const account = pick(accounts);
        const port = pick(apiPorts);
        const roll = rng();
        const failing = rng() < 0.1;
        const hook = rng() < 0.7 ? { webhook_url: receiver.url(`/c${c}/${n}`) } : {};
        let res: CallResult;
        report.requests.sent++;
        if (roll < 0.35) {
          res = await call(port, "POST", "/v1/renders", account.key, {
            ...render(`a${n}`, failing),
            ...hook,
          });
        } else if (roll < 0.6) {
          res = await call(port, "POST", "/v1/renders", account.key, {
            ...render(`w${n}`, failing),
            ...hook,
            wait: 20,
          });
        } else if (roll < 0.8) {
          const rows = 2 + Math.floor(rng() * 5);
          res = await call(port, "POST", "/v1/renders/batch", account.key, {
            ...hook,
            renders: Array.from({ length: rows }, (_, r) => render(`b${n}-${r}`, rng() < 0.1)),
          });
        } else {
          // Sent twice with one Idempotency-Key (a client retrying after a lost answer): one render.
          const headers = { "idempotency-key": `soak-${options.seed}-${n}` };
          const body = { ...render(`i${n}`, failing), ...hook };
          res = await call(port, "POST", "/v1/renders", account.key, body, headers);
          const again = await call(pick(apiPorts), "POST", "/v1/renders", account.key, body, headers);
          const first = res.json?.id;
          const second = again.json?.id;
          if (first && second && first !== second && again.status < 300 && res.status < 300)
            violation(`Idempotency-Key ${headers["idempotency-key"]} made two renders: ${first}, ${second}`);
          if (second) accepted.add(String(second));
        }
        if (res.status === 200 || res.status === 202) {
          report.requests.accepted++;
          if (res.json?.id) accepted.add(String(res.json.id));
          for (const row of (res.json?.renders as { id?: string }[] | undefined) ?? [])
            if (row.id) accepted.add(row.id);
        } else if (res.status === 402) report.requests.refused402++;
        else {
          report.requests.failedOrUnavailable++;
          // A killed process refuses at once: pace the client (load, not a wait for a result).
          await new Promise((r) => setTimeout(r, 50));
        }
        // A wait-mode render that failed answers with its id in the error (accepted, then refunded).
        const failedId = (res.json?.error as { render_id?: string } | undefined)?.render_id;
        if (failedId) accepted.add(failedId);
      }
    };

    // The faults: a random API or worker process is SIGKILLed and restarted after a moment;
    // PostgreSQL is restarted (immediate stop: every connection drops) once, near 40 % of the run.
    const restartAt = Date.now() + options.durationMs * 0.4;
    let postgresRestarted = false;
    const restarts: Promise<void>[] = [];
    const chaos = async () => {
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, between(killEveryMs * 0.5, killEveryMs * 1.5)));
        if (Date.now() >= deadline) break;
        if (!postgresRestarted && Date.now() >= restartAt) {
          postgresRestarted = true;
          log("restarting PostgreSQL");
          await cluster.restart();
          report.faults.postgresRestarts++;
          continue;
        }
        const isApi = rng() < 0.4;
        const slots = isApi ? apis : workers;
        const i = Math.floor(rng() * slots.length);
        const victim = slots[i];
        if (!victim) continue;
        slots[i] = null;
        killed.add(victim);
        await victim.stop("SIGKILL");
        if (isApi) report.faults.apiKills++;
        else report.faults.workerKills++;
        log(`killed ${victim.role} ${i}`);
        const downFor = between(100, 1500);
        restarts.push(
          (async () => {
            await new Promise((r) => setTimeout(r, downFor));
            // A process cannot start while PostgreSQL is down (it exits at once, by design): started
            // again after a moment, as a supervisor (systemd Restart=always) would.
            for (;;) {
              try {
                await (isApi ? startApi(i) : startWorker(i));
                break;
              } catch (error) {
                report.faults.failedStarts++;
                log(`${isApi ? "api" : "worker"} ${i} did not start: ${String(error).slice(0, 120)}`);
                await new Promise((r) => setTimeout(r, 500));
              }
            }
            report.faults.restarts++;
          })(),
        );
      }
    };
    await Promise.all([...Array.from({ length: clients }, (_, c) => client(c)), chaos()]);
    for (const socket of [...held.downloads, ...held.prepares]) socket.destroy();
    await Promise.all(restarts);
    log(`load over: ${JSON.stringify(report.requests)}; settling`);
    // The checker's connection opens after PostgreSQL's restart.
    db = new pg.Client({ connectionString: databaseUrl });
    db.on("error", () => {});
    await db.connect();

    // Settled: nothing queued or rendering, no callback left to deliver (with a deadline).
    const settleStart = Date.now();
    const settleDeadline = settleStart + (options.settleDeadlineMs ?? 120_000);
    for (;;) {
      const { rows } = await db.query(
        `SELECT (SELECT count(*) FROM renders WHERE status NOT IN ('completed', 'failed'))::int AS open,
                (SELECT count(*) FROM webhook_events WHERE state <> 'delivered')::int AS undelivered`,
      );
      if (rows[0].open === 0 && rows[0].undelivered === 0) break;
      if (Date.now() > settleDeadline) {
        violation(`not settled after ${Date.now() - settleStart} ms: ${JSON.stringify(rows[0])}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    report.settleMs = Date.now() - settleStart;
    stopping = true;

    await check(
      db,
      s3,
      attacker ? [...accounts, attacker] : accounts,
      accepted,
      receiver.received,
      report,
      violation,
    );
    return report;
  } finally {
    await Promise.all(
      [...running].map((child) => {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        return gone;
      }),
    );
    await db?.end().catch(() => {});
    await receiver.close();
    await Promise.all([cluster.stop(), s3.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bank-test checker: reads the final state and lists every broken guarantee. */
async function check(
  db: pg.Client,
  s3: { endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string },
  accounts: { id: string }[],
  accepted: Set<string>,
  received: { rawBody: Buffer; verifiedByClient: boolean }[],
  report: SoakReport,
  violation: (text: string) => void,
): Promise<void> {
  const { rows: renders } = await db.query(
    `SELECT r.id, r.account_id, r.status, r.webhook_url, r.credits_charged, a.blob_key,
            coalesce(r.idempotency_key LIKE 'pictor-image-url:%', false) AS on_demand,
            (SELECT count(*) FROM ledger l WHERE l.render_id = r.id AND l.kind = 'charge')::int AS charges,
            (SELECT coalesce(sum(-amount), 0) FROM ledger l WHERE l.render_id = r.id AND l.kind = 'charge')::int AS charged,
            (SELECT count(*) FROM ledger l WHERE l.render_id = r.id AND l.kind = 'refund')::int AS refunds,
            (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.render_id = r.id AND l.kind = 'refund')::int AS refunded,
            (SELECT count(*) FROM assets x WHERE x.render_id = r.id)::int AS assets
       FROM renders r LEFT JOIN assets a ON a.id = r.asset_id`,
  );
  report.renders.total = renders.length;
  const byId = new Map(renders.map((r) => [String(r.id), r]));
  for (const id of accepted) if (!byId.has(id)) violation(`render ${id} was accepted but does not exist`);

  // Deliveries by render id; every one verified with the account's secret.
  const delivered = new Map<string, number>();
  for (const c of received) {
    report.callbacks.deliveries++;
    if (!c.verifiedByClient)
      violation(`a callback failed verification: ${c.rawBody.toString().slice(0, 200)}`);
    const id = String(JSON.parse(c.rawBody.toString("utf8")).id);
    delivered.set(id, (delivered.get(id) ?? 0) + 1);
  }

  const outputs: string[] = [];
  for (const r of renders) {
    const where = `render ${r.id} (${r.status})`;
    if (r.charges !== 1 || r.charged !== r.credits_charged)
      violation(`${where}: charged ${r.charges} times, ${r.charged} credits`);
    if (r.status === "completed") {
      report.renders.completed++;
      if (r.refunds !== 0) violation(`${where}: completed but refunded ${r.refunds} times`);
      // An on-demand URL's output may have been dropped from its account's render cache since.
      if (r.on_demand && r.assets === 0) report.renders.evictedOnDemand++;
      else if (r.assets !== 1 || !r.blob_key) violation(`${where}: ${r.assets} output assets`);
      else outputs.push(String(r.blob_key));
      if (r.webhook_url) {
        report.callbacks.expected++;
        if (!delivered.has(String(r.id))) violation(`${where}: its callback was never delivered`);
      }
    } else if (r.status === "failed") {
      report.renders.failed++;
      if (r.refunds !== 1 || r.refunded !== r.credits_charged)
        violation(`${where}: refunded ${r.refunds} times, ${r.refunded} of ${r.credits_charged} credits`);
      if (r.assets !== 0) violation(`${where}: has ${r.assets} output assets`);
      if (delivered.has(String(r.id))) violation(`${where}: a failed render sent a callback`);
    } else violation(`${where}: never ended`);
  }
  for (const id of delivered.keys())
    if (!byId.has(id)) violation(`a callback names render ${id}, which does not exist`);

  // The bank: every balance equals its ledger, and none is below zero.
  for (const account of accounts) {
    const { rows } = await db.query(
      `SELECT (SELECT coalesce(sum(amount), 0) FROM ledger WHERE account_id = $1)::bigint AS sum,
              (SELECT balance FROM account_balances WHERE account_id = $1)::bigint AS balance`,
      [account.id],
    );
    const { sum, balance } = rows[0] as { sum: string; balance: string };
    if (sum !== balance) violation(`account ${account.id}: ledger sums to ${sum}, balance is ${balance}`);
    if (Number(balance) < 0) violation(`account ${account.id}: balance ${balance} below zero`);
  }
  const { rows: retried } = await db.query(
    "SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND retry_count > 0",
    [RENDER_QUEUE],
  );
  report.renders.retriedJobs = retried[0].n;

  // Every completed render's output is in the object store.
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  try {
    const queue = [...outputs];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let key = queue.pop(); key !== undefined; key = queue.pop()) {
          try {
            await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `soak/${key}` }));
          } catch (error) {
            violation(`output ${key} missing from the object store: ${String(error)}`);
          }
        }
      }),
    );
  } finally {
    client.destroy();
  }
}

interface CallResult {
  status: number;
  text: string;
  json: Record<string, unknown> | null;
}

/** One request; a refused connection or a dropped one is status 0 (the process was killed). */
async function call(
  port: number,
  method: string,
  path: string,
  key: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<CallResult> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let json: Record<string, unknown> | null = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: res.status, text, json };
  } catch (error) {
    return { status: 0, text: String(error), json: null };
  }
}
