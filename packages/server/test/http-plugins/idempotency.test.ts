import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/adapters/sqlite/database.ts";
import { SqliteIdempotencyStore } from "../../src/adapters/sqlite/idempotency-store.ts";
import { settleWhenReachable } from "../../src/app/idempotency-settlements.ts";
import { ApiError } from "../../src/http/errors.ts";
import type { IdempotencyStore } from "../../src/ports/idempotency-store.ts";
import { json, startApp, type TestApp } from "./app.ts";

const HOUR = 3600_000;
const limits = { ttlMs: 24 * HOUR, lockTimeoutMs: 5 * 60_000 };

describe("SqliteIdempotencyStore", () => {
  let store: SqliteIdempotencyStore;
  const scope = { accountId: "acct_1", key: "k1" };
  const response = {
    status: 202,
    headers: { "content-type": "application/json" },
    body: new Uint8Array([123, 125]),
  };
  beforeEach(() => {
    const db = openDatabase(":memory:");
    store = new SqliteIdempotencyStore(db);
  });

  it("claims once, reports in-progress, then replays the stored response", async () => {
    expect(await store.begin(scope, "f", 0, limits)).toEqual({ kind: "started" });
    expect(await store.begin(scope, "f", 1, limits)).toEqual({ kind: "in_progress" });
    expect(await store.begin(scope, "other", 1, limits)).toEqual({ kind: "mismatch" });
    await store.complete(scope, "f", response, 2);
    const replay = await store.begin(scope, "f", 3, limits);
    expect(replay.kind).toBe("completed");
    if (replay.kind === "completed") {
      expect(replay.response.status).toBe(202);
      expect(replay.response.headers).toEqual({ "content-type": "application/json" });
      expect([...replay.response.body]).toEqual([123, 125]);
    }
  });

  it("scopes keys by account", async () => {
    await store.begin(scope, "f", 0, limits);
    expect(await store.begin({ accountId: "acct_2", key: "k1" }, "g", 0, limits)).toEqual({
      kind: "started",
    });
  });

  it("forgets entries after 24 h and purges them", async () => {
    await store.begin(scope, "f", 0, limits);
    await store.complete(scope, "f", response, 0);
    expect(await store.begin(scope, "other", 24 * HOUR, limits)).toEqual({ kind: "started" });
    await store.begin({ accountId: "acct_1", key: "old" }, "f", 24 * HOUR, limits);
    await store.begin({ accountId: "acct_1", key: "new" }, "f", 49 * HOUR, limits);
    // The purge at 49 h removed both rows older than 24 h: only "new" is left.
    expect(store.count()).toBe(1);
  });

  it("lets a retry take over a claim whose process died", async () => {
    await store.begin(scope, "f", 0, limits);
    expect(await store.begin(scope, "f", limits.lockTimeoutMs - 1, limits)).toEqual({ kind: "in_progress" });
    expect(await store.begin(scope, "f", limits.lockTimeoutMs, limits)).toEqual({
      kind: "started",
      resumeSince: 0,
    });
  });

  it("releases a claim so the retry runs again", async () => {
    await store.begin(scope, "f", 0, limits);
    await store.release(scope, "f");
    expect(await store.begin(scope, "f", 1, limits)).toEqual({ kind: "started" });
  });
});

describe("Idempotency-Key over HTTP", () => {
  let t: TestApp;
  let runs = 0;
  let gate: (() => void) | undefined;
  let failNext = false;
  let lastResume: unknown = null;
  beforeAll(async () => {
    t = await startApp((app) => {
      app.post("/v1/renders", { config: { idempotent: true } }, async (request, reply) => {
        runs++;
        const waitFor = (request.body as { slow?: boolean }).slow
          ? new Promise<void>((resolve) => {
              gate = resolve;
            })
          : undefined;
        await waitFor;
        lastResume = request.idempotencyResume;
        if ((request.body as { created?: boolean }).created) request.idempotencyCreated = true;
        if (failNext) {
          failNext = false;
          throw new Error("worker crashed");
        }
        if ((request.body as { broke?: boolean }).broke)
          throw new ApiError("insufficient_credits", "No credits.");
        return reply
          .code(202)
          .header("location", `/v1/renders/rnd_${runs}`)
          .send({ id: `rnd_${runs}`, n: Math.random() });
      });
      app.post("/v1/plain", async () => ({ id: `plain_${++runs}` }));
    });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    runs = 0;
  });

  const send = (key: string | undefined, body: unknown, account = "acct_a", path = "/v1/renders") =>
    fetch(`${t.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${account}`,
        ...(key === undefined ? {} : { "idempotency-key": key }),
      },
      body: JSON.stringify(body),
    });

  it("replays the first response for the same key and body; the handler runs once", async () => {
    const first = await send("same-1", { template: "promo" });
    const firstBody = await first.text();
    const second = await send("same-1", { template: "promo" });
    expect(second.status).toBe(first.status);
    expect(second.status).toBe(202);
    expect(await second.text()).toBe(firstBody);
    expect(second.headers.get("location")).toBe(first.headers.get("location"));
    expect(second.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(second.headers.get("original-request-id")).toBe(first.headers.get("x-request-id"));
    expect(first.headers.get("original-request-id")).toBeNull();
    expect(runs).toBe(1);
  });

  it("answers the same key with another body with 422 idempotency_key_reused", async () => {
    await send("reuse-1", { template: "promo" });
    const response = await send("reuse-1", { template: "other" });
    expect(response.status).toBe(422);
    expect((await json(response)).error.code).toBe("idempotency_key_reused");
    expect(runs).toBe(1);
  });

  it("lets two accounts use the same key independently", async () => {
    await send("shared", { template: "promo" }, "acct_a");
    const other = await send("shared", { template: "promo" }, "acct_b");
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(runs).toBe(2);
  });

  it("gives one of two concurrent twins 409 idempotency_key_in_use", async () => {
    const first = send("twin-1", { slow: true });
    // The first holds the claim until the gate opens; wait until its handler is running.
    while (runs === 0) await new Promise((resolve) => setImmediate(resolve));
    const second = await send("twin-1", { slow: true });
    expect(second.status).toBe(409);
    const body = await json(second);
    expect(body.error.code).toBe("idempotency_key_in_use");
    expect(second.headers.get("retry-after")).toBe("1");
    gate?.();
    expect((await first).status).toBe(202);
    expect(runs).toBe(1);
    const third = await send("twin-1", { slow: false, x: 1 });
    expect(third.status).toBe(422);
  });

  it("lets exactly one of five simultaneous twins run", async () => {
    const all = Array.from({ length: 5 }, () => send("twin-5", { slow: true }));
    let settled = 0;
    for (const pending of all) pending.then(() => settled++);
    // Four answer 409 at once; the winner is held in its handler until the gate opens.
    while (settled < 4) await new Promise((resolve) => setImmediate(resolve));
    gate?.();
    const statuses = (await Promise.all(all)).map((r) => r.status).sort();
    expect(statuses).toEqual([202, 409, 409, 409, 409]);
    expect(runs).toBe(1);
  });

  it("stores 4xx outcomes but releases the key after a 5xx so a retry runs", async () => {
    const refused = await send("credits-1", { broke: true });
    expect(refused.status).toBe(402);
    const replayed = await send("credits-1", { broke: true });
    expect(replayed.status).toBe(402);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(runs).toBe(1);

    failNext = true;
    expect((await send("crash-1", { template: "promo" })).status).toBe(500);
    const retry = await send("crash-1", { template: "promo" });
    expect(retry.status).toBe(202);
    expect(lastResume).toBeNull();
    expect(runs).toBe(3);
  });

  it("keeps the key after a 5xx that follows a creation: the retry resumes at once; another body is refused", async () => {
    failNext = true;
    expect((await send("made-1", { created: true })).status).toBe(500);
    // Not 409 for five minutes, and not a fresh run that would create (and charge) again: a resume.
    const retry = await send("made-1", { created: true });
    expect(retry.status).toBe(202);
    expect(lastResume).toEqual({ key: "made-1", since: expect.any(Number) });
    expect((await send("made-1", { created: true })).headers.get("idempotent-replayed")).toBe("true");
    expect((await send("made-1", { created: false })).status).toBe(422);
    expect(runs).toBe(2);
  });

  it("ignores the header on routes not marked idempotent, and runs every request without one", async () => {
    await send("plain-1", {}, "acct_a", "/v1/plain");
    await send("plain-1", {}, "acct_a", "/v1/plain");
    await send(undefined, { template: "promo" });
    await send(undefined, { template: "promo" });
    expect(runs).toBe(4);
  });

  it("refuses a malformed key with 400 invalid_request", async () => {
    const response = await send("x".repeat(256), { template: "promo" });
    expect(response.status).toBe(400);
    expect((await json(response)).error.code).toBe("invalid_request");
    expect(runs).toBe(0);
  });
});

describe("Idempotency-Key when its store is what failed", () => {
  let t: TestApp;
  let down = false;
  /** The next request's handler takes the store down, as an outage starting mid-request. */
  let downInHandler = false;
  let runs = 0;
  let lastResume: unknown = null;
  const unreachable = () =>
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  beforeAll(async () => {
    const db = openDatabase(":memory:");
    const real = new SqliteIdempotencyStore(db);
    // The database goes away mid-request: every write fails until it is back.
    const store: IdempotencyStore = {
      begin: (...args) => (down ? Promise.reject(unreachable()) : real.begin(...args)),
      complete: (...args) => (down ? Promise.reject(unreachable()) : real.complete(...args)),
      release: (...args) => (down ? Promise.reject(unreachable()) : real.release(...args)),
      suspend: (...args) => (down ? Promise.reject(unreachable()) : real.suspend(...args)),
    };
    t = await startApp(
      (app) => {
        app.post("/v1/renders", { config: { idempotent: true } }, async (request, reply) => {
          runs++;
          lastResume = request.idempotencyResume;
          request.idempotencyCreated = true;
          if (downInHandler) {
            downInHandler = false;
            down = true;
          }
          if ((request.body as { fail?: boolean }).fail) throw unreachable();
          return reply.code(202).send({ id: `rnd_${runs}` });
        });
      },
      { idempotency: { store } },
    );
  });
  afterAll(() => t.close());
  beforeEach(() => {
    down = false;
    downInHandler = false;
    runs = 0;
    lastResume = null;
  });

  const send = (key: string, body: unknown) =>
    fetch(`${t.url}/v1/renders`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer acct_a", "idempotency-key": key },
      body: JSON.stringify(body),
    });

  it("answers a request that failed with the store as its own error, and lets the retry resume at once once the store is back", async () => {
    downInHandler = true;
    const failed = await send("gone-1", { fail: true });
    expect(failed.status).toBe(500);
    expect((await json(failed)).error.code).toBe("internal_error");
    // Still down: the retry cannot claim either (the error handler maps it, 503 in `pictor serve`).
    expect((await send("gone-1", { fail: true })).status).toBe(500);
    expect(runs).toBe(1);

    down = false;
    const retry = await send("gone-1", { fail: true });
    // The handler ran again (not 409 idempotency_key_in_use until the lock times out), resuming.
    expect(runs).toBe(2);
    expect(lastResume).toEqual({ key: "gone-1", since: expect.any(Number) });
    expect(retry.status).toBe(500);
  });

  it("sends an answer it could not store, and the retry resumes from what the request created", async () => {
    downInHandler = true;
    const answered = await send("gone-2", {});
    expect(answered.status).toBe(202);
    expect(await json(answered)).toEqual({ id: "rnd_1" });
    down = false;
    const retry = await send("gone-2", {});
    expect(retry.status).toBe(202);
    expect(lastResume).toEqual({ key: "gone-2", since: expect.any(Number) });
    const replay = await send("gone-2", {});
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(runs).toBe(2);
  });
});

describe("settleWhenReachable", () => {
  const scope = { accountId: "acct_1", key: "k1" };
  const setup = (now: () => number) => {
    const real = new SqliteIdempotencyStore(openDatabase(":memory:"));
    const state = { down: false };
    const fail = () => Promise.reject(new Error("unreachable"));
    const flaky: IdempotencyStore = {
      begin: (...args) => (state.down ? fail() : real.begin(...args)),
      complete: (...args) => (state.down ? fail() : real.complete(...args)),
      release: (...args) => (state.down ? fail() : real.release(...args)),
      suspend: (...args) => (state.down ? fail() : real.suspend(...args)),
    };
    const store = settleWhenReachable(flaky, { lockTimeoutMs: limits.lockTimeoutMs, retryMs: 5, now });
    return { real, state, store };
  };
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 5_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  it("writes a release the store refused as soon as it answers, without waiting for a claim", async () => {
    const { real, state, store } = setup(() => 0);
    await store.begin(scope, "f", 0, limits);
    state.down = true;
    await store.release(scope, "f");
    expect(store.pendingCount()).toBe(1);
    await expect(store.begin(scope, "f", 1, limits)).rejects.toThrow("unreachable");
    state.down = false;
    await until(() => store.pendingCount() === 0);
    // Another process's claim (straight to the store) finds the key free.
    expect(await real.begin(scope, "f", 2, limits)).toEqual({ kind: "started" });
    store.close();
  });

  it("writes a suspension before this process claims the key again, so the retry resumes", async () => {
    const at = Date.now();
    const { state, store } = setup(() => at);
    await store.begin(scope, "f", at, limits);
    state.down = true;
    await store.suspend(scope, "f");
    store.close(); // no timer: the claim itself writes it
    state.down = false;
    expect(await store.begin(scope, "f", at + 100, limits)).toEqual({ kind: "started", resumeSince: at });
    expect(store.pendingCount()).toBe(0);
  });

  it("does not hold the answer for a store that does not answer; the next claim waits for the write", async () => {
    const real = new SqliteIdempotencyStore(openDatabase(":memory:"));
    let answer: () => void = () => {};
    const slow: IdempotencyStore = {
      begin: (...args) => real.begin(...args),
      complete: (...args) => real.complete(...args),
      suspend: (...args) => real.suspend(...args),
      release: (...args) =>
        new Promise<void>((resolve) => {
          answer = () => resolve(real.release(...args));
        }),
    };
    const store = settleWhenReachable(slow, { lockTimeoutMs: limits.lockTimeoutMs, answerWithinMs: 10 });
    await store.begin(scope, "f", 0, limits);
    await store.release(scope, "f");
    expect(store.pendingCount()).toBe(1);
    const claim = store.begin(scope, "f", 1, limits);
    answer();
    expect(await claim).toEqual({ kind: "started" });
    expect(store.pendingCount()).toBe(0);
    store.close();
  });

  it("drops a settlement older than half the lock timeout instead of writing it over a newer claim", async () => {
    let now = 0;
    const { real, state, store } = setup(() => now);
    await store.begin(scope, "f", 0, limits);
    state.down = true;
    await store.release(scope, "f");
    now = limits.lockTimeoutMs / 2 + 1;
    state.down = false;
    await until(() => store.pendingCount() === 0);
    expect(await real.begin(scope, "f", 1, limits)).toEqual({ kind: "in_progress" });
    store.close();
  });
});
