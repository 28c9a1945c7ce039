import { type ChildProcess, execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testTemplate } from "../api/support.ts";
import { seededRandom } from "../support/seeded-random.ts";
import { exited, killStillRunning, PICTOR_BIN, type ServeProcess, spawnServe } from "./serve-process.ts";

// Reliability matrix, "Load and faults": a random mix of requests while the process is killed and
// restarted; afterwards the ledger balances and every render is in a final state. A handful of
// clients send a seeded mix (async, wait and idempotent renders, batches, polls) to `pictor serve`
// while it is SIGKILLed several times and restarted on the same data dir. The kills come after a
// seeded number of client operations plus a seeded delay, so they land at different points of the
// requests and renders on every seed, and the soak takes the same amount of work on a slow machine
// as on a fast one. PICTOR_SOAK_SEED=<n> replays a seed's choices (not its exact interleaving).

const run = promisify(execFile);

const SEED = Number(process.env.PICTOR_SOAK_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CLIENTS = 4;
const TOTAL_OPS = 240;
const KILLS = 4;

let dir: string;
let images: Server;
let imagePort: number;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pictor-kill-soak-"));
  const png = await sharp({ create: { width: 48, height: 48, channels: 3, background: "#2288aa" } })
    .png()
    .toBuffer();
  // /photo.png answers at once, /slow.png?ms=N after N ms (so renders are in flight when the server
  // dies), /missing.png 404 and /garbage a body that is no image: both fail the render, with a refund.
  images = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const send = () => res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (url.pathname === "/photo.png") send();
    else if (url.pathname === "/slow.png") setTimeout(send, Number(url.searchParams.get("ms")));
    else if (url.pathname === "/garbage") res.writeHead(200, { "content-type": "image/png" }).end("no png");
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => images.listen(0, "127.0.0.1", r));
  imagePort = (images.address() as AddressInfo).port;
});
afterAll(async () => {
  killStillRunning(children);
  images.closeAllConnections();
  await new Promise((r) => images.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({
  ...process.env,
  PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${imagePort}`,
  PICTOR_LOG_LEVEL: "warn",
  PICTOR_RATE_LIMIT_BURST: "100000",
});

const pictor = async (...args: string[]) =>
  (await run(process.execPath, [PICTOR_BIN, ...args, "--data", dir], { env: env() })).stdout;

interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: responses are inspected field by field
  body: any;
}

/**
 * The service across restarts: `up` resolves with the process serving now, or, while it is down,
 * with the next one. A request that fails to connect waits for the next process and reports itself
 * lost (it may or may not have been acted on, as for any client whose server died).
 */
class Service {
  #up: Promise<ServeProcess>;
  #current: ServeProcess | null = null;
  #markUp: (s: ServeProcess) => void = () => {};

  constructor() {
    this.#up = new Promise((r) => {
      this.#markUp = r;
    });
  }

  get current(): ServeProcess {
    if (!this.#current) throw new Error("the service is down");
    return this.#current;
  }

  async start(): Promise<ServeProcess> {
    const serving = await spawnServe(dir, env(), children);
    this.#current = serving;
    this.#markUp(serving);
    return serving;
  }

  /** SIGKILL; from now on requests wait for the next `start`. */
  async kill(): Promise<void> {
    const victim = this.current;
    this.#current = null;
    this.#up = new Promise((r) => {
      this.#markUp = r;
    });
    victim.child.kill("SIGKILL");
    expect((await exited(victim.child)).signal).toBe("SIGKILL");
  }

  async request(
    method: string,
    path: string,
    options: { key: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply | "lost"> {
    const serving = await this.#up;
    const headers: Record<string, string> = { authorization: `Bearer ${options.key}`, ...options.headers };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${serving.url}${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        // Far above any answer (waits are at most 2 s): a request hanging this long is a defect.
        signal: AbortSignal.timeout(20_000),
      });
      text = await res.text();
    } catch (error) {
      // Only a server that was killed may drop a request.
      if ((await this.#up) === serving) throw error;
      return "lost";
    }
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, headers: res.headers, body };
  }
}

type Outcome = "completed" | "failed";

interface Account {
  id: string;
  key: string;
  credits: number;
}

it(`a seeded mix of requests while the server is SIGKILLed and restarted: ledger balances, every render final (seed ${SEED})`, async () => {
  console.log(`kill soak: seed ${SEED} (PICTOR_SOAK_SEED=${SEED} reproduces its choices)`);
  const rng = seededRandom(SEED);
  const service = new Service();
  await service.start();

  // A rich account and two poor ones, whose credits run out mid-soak (402s, batches cut short).
  const accounts: Account[] = await Promise.all(
    [400, 40, 12].map(async (credits, i) => {
      const created = JSON.parse(
        await pictor("accounts", "create", "--name", `soak-${i}`, "--credits", String(credits), "--json"),
      );
      return { id: created.account_id, key: created.api_key, credits };
    }),
  );
  for (const account of accounts) {
    const res = await service.request("POST", "/v1/templates", {
      key: account.key,
      body: { document: testTemplate(), publish: true },
    });
    expect(res !== "lost" && res.status).toBe(201);
  }

  // What the clients asked for and were told. `expected` maps each render request's op id (sent as
  // metadata, so a render can be traced back even when its answer was lost) to how it must end.
  const expected = new Map<string, Outcome>();
  const told = new Map<string, { accountId: string; op: string }>(); // render id → who was told
  const toldBatches = new Map<string, string>(); // batch id → account key
  const idempotent = new Map<string, { accountId: string; renderIds: Set<string>; batch: boolean }>();
  const defects: string[] = [];
  const stats = { ops: 0, lost: 0, refusedForCredits: 0, replays: 0, resumedAfterKill: 0 };

  // Kill points: after a seeded number of operations, then a seeded delay into whatever is running.
  // Most kills aim at the next Idempotency-Key render or batch instead, a few ms after it is sent
  // (while its key is claimed, its rows accepted, or its answer stored), where a retry after the
  // restart must not charge twice; none comes within 20 operations: the kill lands anyway.
  const killAt = Array.from({ length: KILLS }, () => Math.floor(TOTAL_OPS * (0.1 + rng() * 0.75))).sort(
    (a, b) => a - b,
  );
  type Aim = "anything" | "idempotent render" | "idempotent batch";
  const kills = killAt.map((at) => {
    const roll = rng();
    const aim: Aim = roll < 0.4 ? "anything" : roll < 0.7 ? "idempotent render" : "idempotent batch";
    return { at, aim, delayMs: Math.floor(rng() * (aim === "anything" ? 250 : 8)) };
  });
  const idempotentSent: { aim: Aim; resolve: () => void }[] = [];
  let clientsDone = false;
  const nextSend = (aim: Aim) => new Promise<void>((resolve) => idempotentSent.push({ aim, resolve }));
  const sent = (aim: Aim) => {
    for (const waiter of idempotentSent.filter((w) => w.aim === aim)) {
      idempotentSent.splice(idempotentSent.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const progress: { at: number; resolve: () => void }[] = [];
  const untilOps = (n: number) =>
    new Promise<void>((resolve) => {
      if (stats.ops >= n) resolve();
      else progress.push({ at: n, resolve });
    });
  const countOp = () => {
    stats.ops++;
    for (const p of progress.filter((w) => w.at <= stats.ops)) {
      progress.splice(progress.indexOf(p), 1);
      p.resolve();
    }
  };

  const imageUrl = (path: string) => `http://127.0.0.1:${imagePort}${path}`;

  /** A render body for op `op`: scale 1 or 2, a frame, a format, and an input image that may fail. */
  const renderBody = (r: () => number, op: string) => {
    const roll = r();
    const image =
      roll < 0.3
        ? null
        : roll < 0.55
          ? "/photo.png"
          : roll < 0.75
            ? `/slow.png?ms=${Math.floor(50 + r() * 300)}`
            : roll < 0.9
              ? "/missing.png"
              : "/garbage";
    // The "wide" frame has no photo layer: its renders never fetch the image, so they complete.
    const frame = r() < 0.8 ? "main" : "wide";
    const bad = image === "/missing.png" || image === "/garbage";
    const outcome: Outcome = bad && frame === "main" ? "failed" : "completed";
    expected.set(op, outcome);
    return {
      template: "test-card",
      modifications: [
        { name: "title", text: `op ${op}` },
        ...(image ? [{ name: "photo", image_url: imageUrl(image) }] : []),
      ],
      scale: r() < 0.7 ? 1 : 2,
      format: (["png", "jpg", "webp"] as const)[Math.floor(r() * 3)],
      frame,
      metadata: { op },
    };
  };

  const noteRender = (account: Account, id: string, op: string, where: string) => {
    const before = told.get(id);
    if (before && (before.op !== op || before.accountId !== account.id))
      defects.push(`${where}: render ${id} was given for op ${before.op} and again for op ${op}`);
    told.set(id, { accountId: account.id, op });
  };

  const noteRefusal = (reply: Reply, where: string, scale: number) => {
    if (reply.body?.error?.code !== "insufficient_credits" || reply.body.error.required !== scale * scale)
      defects.push(`${where}: 402 ${JSON.stringify(reply.body)}`);
    else stats.refusedForCredits++;
  };

  /** Checks a POST /v1/renders answer and records what it says. */
  const noteRenderReply = (
    account: Account,
    op: string,
    body: { scale: number },
    reply: Reply,
    w: string,
  ) => {
    const outcome = expected.get(op);
    if (reply.status === 202 || reply.status === 200) {
      noteRender(account, reply.body.id, op, w);
      if (reply.status === 200 && (reply.body.status !== "completed" || outcome !== "completed"))
        defects.push(
          `${w}: 200 with ${reply.body.status}, expected ${outcome}: ${JSON.stringify(reply.body)} for ${JSON.stringify(body)}`,
        );
    } else if (reply.status === 422 && /^image_(fetch_failed|invalid)$/.test(reply.body?.error?.code)) {
      noteRender(account, reply.body.error.render_id, op, w);
      if (outcome !== "failed")
        defects.push(`${w}: ${reply.body.error.code} for a render expected to complete`);
    } else if (reply.status === 402) noteRefusal(reply, w, body.scale);
    else defects.push(`${w}: ${reply.status} ${JSON.stringify(reply.body)}`);
  };

  /**
   * Sends an Idempotency-Key request until it gets an answer (retrying through kills), then sends it
   * once more at times: every answer must name the same render(s).
   */
  const sendIdempotent = async (
    account: Account,
    path: string,
    key: string,
    body: unknown,
    r: () => number,
  ) => {
    const headers = { "idempotency-key": key };
    const first = service.request("POST", path, { key: account.key, body, headers });
    sent(path === "/v1/renders" ? "idempotent render" : "idempotent batch");
    let reply = await first;
    while (reply === "lost") {
      stats.lost++;
      stats.resumedAfterKill++;
      reply = await service.request("POST", path, { key: account.key, body, headers });
    }
    const replies = [reply];
    if (r() < 0.5) {
      const again = await service.request("POST", path, { key: account.key, body, headers });
      if (again === "lost") stats.lost++;
      else {
        replies.push(again);
        stats.replays++;
        if (again.status !== reply.status)
          defects.push(`${key}: replayed as ${again.status}, first ${reply.status}`);
      }
    }
    return replies;
  };

  const client = async (index: number) => {
    const r = seededRandom(SEED * 31 + index + 1);
    let n = 0;
    while (stats.ops < TOTAL_OPS) {
      const op = `c${index}-${n++}`;
      const roll = r();
      const account = accounts[r() < 0.5 ? 0 : r() < 0.6 ? 1 : 2] as Account;
      const w = `op ${op}`;
      if (roll < 0.3) {
        // Async render.
        const body = renderBody(r, op);
        const reply = await service.request("POST", "/v1/renders", { key: account.key, body });
        if (reply === "lost") stats.lost++;
        else noteRenderReply(account, op, body, reply, w);
      } else if (roll < 0.45) {
        // Wait render, short wait: 200 completed, 422 failed, or 202 still running.
        const body = { ...renderBody(r, op), wait: 1 + Math.floor(r() * 2) };
        const reply = await service.request("POST", "/v1/renders", { key: account.key, body });
        if (reply === "lost") stats.lost++;
        else noteRenderReply(account, op, body, reply, w);
      } else if (roll < 0.63) {
        // Idempotent render (async or waiting), retried through kills until answered.
        const body = { ...renderBody(r, op), ...(r() < 0.4 ? { wait: 2 } : {}) };
        const key = `soak-${SEED}-${op}`;
        const entry = { accountId: account.id, renderIds: new Set<string>(), batch: false };
        idempotent.set(key, entry);
        for (const reply of await sendIdempotent(account, "/v1/renders", key, body, r)) {
          noteRenderReply(account, op, body, reply, w);
          const id = reply.body?.id ?? reply.body?.error?.render_id;
          if (id) entry.renderIds.add(id);
        }
      } else if (roll < 0.78) {
        // Batch of 2–8 rows; some rows refused (scale 9), the rest charged in order until credits run out.
        const rows = Array.from({ length: 2 + Math.floor(r() * 7) }, (_, i) =>
          r() < 0.15 ? { template: "test-card", modifications: [], scale: 9 } : renderBody(r, `${op}.${i}`),
        );
        const body = { metadata: { batch: op }, renders: rows };
        let replies: Reply[] = [];
        const entry = { accountId: account.id, renderIds: new Set<string>(), batch: true };
        if (r() < 0.5) {
          const key = `soak-${SEED}-${op}`;
          idempotent.set(key, entry);
          replies = await sendIdempotent(account, "/v1/renders/batch", key, body, r);
        } else {
          const reply = await service.request("POST", "/v1/renders/batch", { key: account.key, body });
          if (reply === "lost") stats.lost++;
          else replies = [reply];
        }
        for (const reply of replies) {
          if (reply.status !== 202) {
            defects.push(`${w}: batch ${reply.status} ${JSON.stringify(reply.body)}`);
            continue;
          }
          toldBatches.set(reply.body.batch_id, account.key);
          entry.renderIds.add(reply.body.batch_id);
          for (const row of reply.body.renders) {
            const asked = rows[row.index] as { scale: number };
            if (row.id) noteRender(account, row.id, `${op}.${row.index}`, `${w} row ${row.index}`);
            else if (asked.scale === 9 && row.error?.code === "invalid_scale") {
            } else if (row.error?.code === "insufficient_credits") stats.refusedForCredits++;
            else defects.push(`${w} row ${row.index}: ${JSON.stringify(row)}`);
          }
        }
      } else if (roll < 0.92) {
        // Poll a render this account was told about: it never vanishes.
        const mine = [...told].filter(([, t]) => t.accountId === account.id);
        const pick = mine[Math.floor(r() * mine.length)];
        if (pick) {
          const reply = await service.request("GET", `/v1/renders/${pick[0]}`, { key: account.key });
          if (reply === "lost") stats.lost++;
          else if (reply.status !== 200 || reply.body.id !== pick[0])
            defects.push(`${w}: GET ${pick[0]} → ${reply.status} ${JSON.stringify(reply.body)}`);
        }
      } else {
        const reply = await service.request("GET", "/v1/account", { key: account.key });
        if (reply === "lost") stats.lost++;
        else if (reply.status !== 200 || !(reply.body.credits_balance >= 0))
          defects.push(`${w}: GET /v1/account → ${reply.status} ${JSON.stringify(reply.body)}`);
      }
      countOp();
    }
  };

  const db = () => new DatabaseSync(join(dir, "pictor.db"));
  const killer = async () => {
    const pendingAtKills: number[] = [];
    for (const kill of kills) {
      await untilOps(kill.at);
      if (kill.aim !== "anything") await Promise.race([nextSend(kill.aim), untilOps(kill.at + 20)]);
      if (clientsDone) break;
      await new Promise((resolve) => setTimeout(resolve, kill.delayMs));
      await service.kill();
      const state = db();
      try {
        pendingAtKills.push(
          Number(
            state.prepare("SELECT COUNT(*) AS n FROM renders WHERE status IN ('queued', 'rendering')").get()
              ?.n,
          ),
        );
        // The invariants hold at any moment, this one included.
        checkLedger(state, { final: false });
        // The server stayed down past the Idempotency-Key lock (5 minutes): a retry of a request the
        // dead process was running takes it over and resumes, as after a real outage.
        state
          .prepare("UPDATE idempotency_keys SET locked_at = locked_at - 3600000 WHERE state = 'started'")
          .run();
      } finally {
        state.close();
      }
      await service.start();
    }
    return pendingAtKills;
  };

  const started = Date.now();
  const clients = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i))).finally(() => {
    // A kill still waiting for its moment has none left: let the killer stop.
    clientsDone = true;
    for (const p of progress.splice(0)) p.resolve();
    for (const waiter of idempotentSent.splice(0)) waiter.resolve();
  });
  const [pendingAtKills] = await Promise.all([killer(), clients]);
  expect(defects).toEqual([]);

  const soakMs = Date.now() - started;
  // Every render the service holds, told or not (answers lost with a kill), reaches a final state.
  const serving = service.current;
  const keyOf = new Map(accounts.map((a) => [a.id, a.key]));
  const reader = new DatabaseSync(join(dir, "pictor.db"), { readOnly: true });
  const all = reader
    .prepare("SELECT id, account_id FROM renders WHERE account_id IN (?, ?, ?)")
    .all(...accounts.map((a) => a.id)) as { id: string; account_id: string }[];
  const deadline = Date.now() + 45_000;
  for (const render of all) {
    const key = keyOf.get(render.account_id) as string;
    for (;;) {
      const res = await service.request("GET", `/v1/renders/${render.id}`, { key });
      if (res === "lost") throw new Error("the last server died");
      expect(res.status).toBe(200);
      if (res.body.status === "completed" || res.body.status === "failed") break;
      if (Date.now() > deadline) throw new Error(`render ${render.id} is still ${res.body.status}`);
      // Still queued behind others: poll (async renders have no push to await).
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  // Batches the clients were told about are still there, and list only stored renders (checked below).
  const listedByBatches: string[] = [];
  for (const [batchId, key] of toldBatches) {
    const res = await service.request("GET", `/v1/batches/${batchId}`, { key });
    if (res === "lost") throw new Error("the last server died");
    expect(res.status, `batch ${batchId}`).toBe(200);
    for (const row of res.body.renders as { id?: string }[]) if (row.id) listedByBatches.push(row.id);
  }
  const balances = new Map<string, number>();
  for (const a of accounts) {
    const res = await service.request("GET", "/v1/account", { key: a.key });
    if (res === "lost") throw new Error("the last server died");
    balances.set(a.id, res.body.credits_balance);
  }
  serving.child.kill("SIGTERM");
  expect(await exited(serving.child)).toEqual({ code: 0, signal: null });
  reader.close();

  const drainMs = Date.now() - started - soakMs;
  const final = new DatabaseSync(join(dir, "pictor.db"), { readOnly: true });
  try {
    checkLedger(final, { final: true });
    for (const a of accounts) {
      const { total, grants } = final
        .prepare(
          "SELECT COALESCE(SUM(amount), 0) AS total, COALESCE(SUM(CASE WHEN kind = 'grant' THEN amount END), 0) AS grants FROM ledger WHERE account_id = ?",
        )
        .get(a.id) as { total: number; grants: number };
      expect(grants).toBe(a.credits);
      expect(total).toBe(balances.get(a.id));
      expect(total).toBeGreaterThanOrEqual(0);
    }

    const renders = final
      .prepare(
        "SELECT id, account_id, status, scale, frame, format, width, height, metadata, idempotency_key, error_code FROM renders",
      )
      .all() as {
      id: string;
      account_id: string;
      status: string;
      scale: number;
      frame: string;
      format: string;
      width: number;
      height: number;
      metadata: string;
      idempotency_key: string | null;
      error_code: string | null;
    }[];
    const byId = new Map(renders.map((r) => [r.id, r]));
    // None vanished: every render a client was told about is stored, for the account it was told to.
    for (const [id, t] of told)
      expect(byId.get(id)?.account_id, `render ${id} of op ${t.op}`).toBe(t.accountId);

    // Each render ended as its input says: good images complete, 404 and garbage fail (kills or not).
    for (const r of renders) {
      const op = JSON.parse(r.metadata).op as string;
      const want = expected.get(op);
      expect(want, `render ${r.id}: op ${op} unknown`).toBeDefined();
      expect(`${r.id} ${r.status}`).toBe(`${r.id} ${want}`);
      if (r.status === "failed") expect(r.error_code).toMatch(/^image_(fetch_failed|invalid)$/);
    }

    // Each completed render's output is stored and decodes to the size asked for.
    const assetOf = final.prepare("SELECT blob_key, width, height FROM assets WHERE render_id = ?");
    for (const r of renders.filter((x) => x.status === "completed")) {
      const asset = assetOf.get(r.id) as { blob_key: string; width: number; height: number } | undefined;
      expect(asset, `render ${r.id} has its output asset`).toBeDefined();
      const file = join(dir, "blobs", String(asset?.blob_key));
      expect(existsSync(file), file).toBe(true);
      const { info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
      const frame = r.frame === "wide" ? { w: 300, h: 100 } : { w: 200, h: 100 };
      expect([info.width, info.height, asset?.width, asset?.height]).toEqual([
        frame.w * r.scale,
        frame.h * r.scale,
        r.width,
        r.height,
      ]);
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe(r.format);
    }

    // Idempotency-Key: however many times a request was sent (retries through kills, replays), it
    // made at most one render (one batch), and every answer named that one.
    for (const [key, entry] of idempotent) {
      expect(entry.renderIds.size, `${key}: ${[...entry.renderIds]}`).toBeLessThanOrEqual(1);
      if (entry.batch) {
        const batches = final
          .prepare("SELECT id FROM batches WHERE account_id = ? AND json_extract(metadata, '$.batch') = ?")
          .all(entry.accountId, key.replace(`soak-${SEED}-`, "")) as { id: string }[];
        expect(batches.length, `${key}: batches ${batches.map((b) => b.id)}`).toBeLessThanOrEqual(1);
        if (entry.renderIds.size === 1) expect(batches.map((b) => b.id)).toEqual([...entry.renderIds]);
      } else {
        const stored = renders.filter((r) => r.account_id === entry.accountId && r.idempotency_key === key);
        expect(stored.length, `${key}: renders ${stored.map((r) => r.id)}`).toBeLessThanOrEqual(1);
        if (entry.renderIds.size === 1) expect(stored.map((r) => r.id)).toEqual([...entry.renderIds]);
      }
    }
    for (const id of listedByBatches) expect(byId.has(id), `render ${id} listed by a batch`).toBe(true);

    const completed = renders.filter((r) => r.status === "completed").length;
    console.log(
      `kill soak: seed ${SEED}, kills ${kills
        .slice(0, pendingAtKills.length)
        .map((k) => `at op ${k.at} (${k.aim}, +${k.delayMs} ms)`)
        .join(", ")} with ${pendingAtKills.join(", ")} renders pending; ` +
        `${renders.length} renders (${completed} completed, ${renders.length - completed} failed), ${told.size} told to clients; ` +
        `${stats.lost} requests lost, ${stats.resumedAfterKill} idempotent retries after a kill, ${stats.replays} replays, ${stats.refusedForCredits} refused for credits; ` +
        `soak ${soakMs} ms, drain ${drainMs} ms`,
    );
    expect(completed).toBeGreaterThan(0);
    expect(renders.length - completed).toBeGreaterThan(0);
  } finally {
    final.close();
  }
}, 120_000);

/**
 * The matrix's invariants, read from the database: every account's balance is the sum of its ledger
 * (grants − charges + refunds; charges are stored negative) and not below zero; no ledger entry names
 * a render that does not exist; each render has exactly one charge of its cost; a failed render has
 * exactly one refund of that cost, any other none. `final`: every render is completed or failed.
 */
function checkLedger(db: DatabaseSync, { final }: { final: boolean }): void {
  const balances = db
    .prepare(
      `SELECT a.id, COALESCE((SELECT SUM(amount) FROM ledger l WHERE l.account_id = a.id), 0) AS total,
              (SELECT balance FROM account_balances b WHERE b.account_id = a.id) AS balance
       FROM accounts a`,
    )
    .all() as { id: string; total: number; balance: number | null }[];
  for (const b of balances) {
    expect(b.total, `account ${b.id}`).toBeGreaterThanOrEqual(0);
    expect(b.balance ?? 0, `account ${b.id}`).toBe(b.total);
  }
  const orphans = db
    .prepare(
      "SELECT l.kind, l.render_id FROM ledger l LEFT JOIN renders r ON r.id = l.render_id WHERE l.render_id IS NOT NULL AND r.id IS NULL",
    )
    .all();
  expect(orphans).toEqual([]);
  const wrong = db
    .prepare(
      `SELECT r.id, r.status, r.credits_charged,
              (SELECT group_concat(kind || ':' || amount) FROM ledger l WHERE l.render_id = r.id) AS entries
       FROM renders r
       WHERE (SELECT COUNT(*) FROM ledger l WHERE l.render_id = r.id AND l.kind = 'charge' AND l.amount = -r.credits_charged) <> 1
          OR (SELECT COUNT(*) FROM ledger l WHERE l.render_id = r.id AND l.kind = 'refund' AND l.amount = r.credits_charged)
             <> (CASE WHEN r.status = 'failed' THEN 1 ELSE 0 END)
          OR (SELECT COUNT(*) FROM ledger l WHERE l.render_id = r.id) <> (CASE WHEN r.status = 'failed' THEN 2 ELSE 1 END)
          ${final ? "OR r.status NOT IN ('completed', 'failed')" : ""}`,
    )
    .all();
  expect(wrong).toEqual([]);
}
