import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteWebhookOutbox } from "../../src/adapters/sqlite/webhook-outbox.ts";
import { completionEvent, createOutboxFixture, type OutboxFixture } from "./support/outbox-fixture.ts";

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const LEASE = 60_000;
const attempt = (at: number, status_code: number | null, error: string | null = null) => ({
  at,
  status_code,
  error,
  duration_ms: 12,
});

describe("SQLite WebhookOutbox", () => {
  let fx: OutboxFixture;
  beforeEach(() => {
    fx = createOutboxFixture();
  });
  afterEach(() => fx.cleanup());

  it("has its tables after the database is opened, and again after it is reopened", () => {
    fx.reopen();
    const tables = fx.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["webhook_attempts", "webhook_events"]));
  });

  it("enqueues one completion event per render", async () => {
    const event = completionEvent("http://127.0.0.1:9/hook", T0);
    expect(await fx.outbox.enqueue(event)).toEqual({ enqueued: true });
    expect(await fx.outbox.enqueue({ ...event, event_id: "evt_other", body: "{}" })).toEqual({
      enqueued: false,
    });
    const [claimed, ...rest] = await fx.outbox.claimDue(T0, 10, LEASE);
    expect(rest).toEqual([]);
    expect(claimed).toMatchObject({ event_id: event.event_id, body: event.body, schedule_attempts: 0 });
  });

  it("claims only due events, oldest first, up to the limit", async () => {
    const first = completionEvent("http://127.0.0.1:9/a", T0);
    const second = completionEvent("http://127.0.0.1:9/b", T0 + 1);
    const future = completionEvent("http://127.0.0.1:9/c", T0 + 60_000);
    for (const e of [future, second, first]) await fx.outbox.enqueue(e);
    const claimed = await fx.outbox.claimDue(T0 + 10, 1, LEASE);
    expect(claimed.map((c) => c.event_id)).toEqual([first.event_id]);
    expect((await fx.outbox.claimDue(T0 + 10, 10, LEASE)).map((c) => c.event_id)).toEqual([second.event_id]);
  });

  it("never hands a leased event to a second claimer until the lease expires, also from another connection", async () => {
    const event = completionEvent("http://127.0.0.1:9/hook", T0);
    await fx.outbox.enqueue(event);
    const [claimed] = await fx.outbox.claimDue(T0, 10, LEASE);
    expect(claimed?.lease_until).toBe(T0 + LEASE);
    const otherProcess = new DatabaseSync(fx.path);
    try {
      const other = createSqliteWebhookOutbox(otherProcess);
      expect(await other.claimDue(T0 + LEASE - 1, 10, LEASE)).toEqual([]);
      const [again] = await other.claimDue(T0 + LEASE, 10, LEASE);
      expect(again?.event_id).toBe(event.event_id);
      expect(again?.claim_token).not.toBe(claimed?.claim_token);
    } finally {
      otherProcess.close();
    }
  });

  it("records attempts, schedules the next one and stops claiming once delivered", async () => {
    const event = completionEvent("http://127.0.0.1:9/hook", T0);
    await fx.outbox.enqueue(event);
    const [c1] = await fx.outbox.claimDue(T0, 10, LEASE);
    if (!c1) throw new Error("not claimed");
    await fx.outbox.recordAttempt(c1.event_id, c1.claim_token, attempt(T0, 500, "receiver answered 500"), {
      state: "pending",
      next_attempt_at: T0 + 5_000,
    });
    expect(await fx.outbox.claimDue(T0 + 4_999, 10, LEASE)).toEqual([]);
    const [c2] = await fx.outbox.claimDue(T0 + 5_000, 10, LEASE);
    if (!c2) throw new Error("not claimed");
    expect(c2.schedule_attempts).toBe(1);
    await fx.outbox.recordAttempt(c2.event_id, c2.claim_token, attempt(T0 + 5_000, 204), {
      state: "delivered",
    });
    expect(await fx.outbox.claimDue(T0 + 10 * 86_400_000, 10, LEASE)).toEqual([]);
    expect(await fx.outbox.listAttempts(event.render_id)).toEqual({
      event_id: event.event_id,
      render_id: event.render_id,
      url: event.url,
      state: "delivered",
      created_at: T0,
      next_attempt_at: null,
      attempts: [
        { attempt: 1, ...attempt(T0, 500, "receiver answered 500") },
        { attempt: 2, ...attempt(T0 + 5_000, 204) },
      ],
    });
  });

  it("logs a late attempt from an expired claim without letting it overwrite the newer outcome", async () => {
    const event = completionEvent("http://127.0.0.1:9/hook", T0);
    await fx.outbox.enqueue(event);
    const [stale] = await fx.outbox.claimDue(T0, 10, LEASE);
    const [fresh] = await fx.outbox.claimDue(T0 + LEASE, 10, LEASE);
    if (!stale || !fresh) throw new Error("not claimed");
    await fx.outbox.recordAttempt(fresh.event_id, fresh.claim_token, attempt(T0 + LEASE, 200), {
      state: "delivered",
    });
    await fx.outbox.recordAttempt(stale.event_id, stale.claim_token, attempt(T0, null, "timeout: slow"), {
      state: "failed",
    });
    const log = await fx.outbox.listAttempts(event.render_id);
    expect(log?.state).toBe("delivered");
    expect(log?.attempts.map((a) => a.status_code)).toEqual([200, null]);
  });

  it("stores the signature once and keeps it", async () => {
    const event = completionEvent("http://127.0.0.1:9/hook", T0);
    await fx.outbox.enqueue(event);
    expect(await fx.outbox.fixSignature(event.event_id, "sha256=first")).toBe("sha256=first");
    expect(await fx.outbox.fixSignature(event.event_id, "sha256=second")).toBe("sha256=first");
    const [claimed] = await fx.outbox.claimDue(T0, 10, LEASE);
    expect(claimed?.signature).toBe("sha256=first");
  });

  it("redelivers a failed event: same bytes, due now, fresh schedule, re-signed with the current secret", async () => {
    const event = completionEvent("http://127.0.0.1:9/hook", T0);
    await fx.outbox.enqueue({ ...event, signature: "sha256=old" });
    const [c1] = await fx.outbox.claimDue(T0, 10, LEASE);
    if (!c1) throw new Error("not claimed");
    await fx.outbox.recordAttempt(c1.event_id, c1.claim_token, attempt(T0, 410), { state: "failed" });
    expect(await fx.outbox.claimDue(T0 + 1_000, 10, LEASE)).toEqual([]);
    expect(await fx.outbox.redeliver(event.render_id, T0 + 2_000)).toBe(true);
    expect(await fx.outbox.redeliver("rnd_unknown", T0 + 2_000)).toBe(false);
    const [c2] = await fx.outbox.claimDue(T0 + 2_000, 10, LEASE);
    expect(c2).toMatchObject({
      event_id: event.event_id,
      body: event.body,
      schedule_attempts: 0,
      signature: null,
    });
    expect((await fx.outbox.listAttempts(event.render_id))?.state).toBe("pending");
  });

  it("enqueues inside the caller's transaction and rolls back with it; claims nest as a savepoint", async () => {
    const kept = completionEvent("http://127.0.0.1:9/kept", T0);
    const dropped = completionEvent("http://127.0.0.1:9/dropped", T0);
    fx.db.exec("BEGIN");
    await fx.outbox.enqueue(dropped);
    fx.db.exec("ROLLBACK");
    fx.db.exec("BEGIN");
    await fx.outbox.enqueue(kept);
    const claimed = await fx.outbox.claimDue(T0, 10, LEASE);
    fx.db.exec("COMMIT");
    expect(claimed.map((c) => c.event_id)).toEqual([kept.event_id]);
    expect(await fx.outbox.listAttempts(dropped.render_id)).toBeNull();
    expect(await fx.outbox.claimDue(T0, 10, LEASE)).toEqual([]);
  });

  it("has no delivery log for a render without a callback", async () => {
    expect(await fx.outbox.listAttempts("rnd_none")).toBeNull();
  });

  it("survives a restart: pending events and the log are on disk", async () => {
    const event = completionEvent("http://127.0.0.1:9/hook", T0);
    await fx.outbox.enqueue(event);
    const [c1] = await fx.outbox.claimDue(T0, 10, LEASE);
    if (!c1) throw new Error("not claimed");
    await fx.outbox.recordAttempt(c1.event_id, c1.claim_token, attempt(T0, 503), {
      state: "pending",
      next_attempt_at: T0 + 5_000,
    });
    fx.reopen();
    const [c2] = await fx.outbox.claimDue(T0 + 5_000, 10, LEASE);
    expect(c2).toMatchObject({ event_id: event.event_id, body: event.body, schedule_attempts: 1 });
    expect((await fx.outbox.listAttempts(event.render_id))?.attempts).toHaveLength(1);
  });
});
