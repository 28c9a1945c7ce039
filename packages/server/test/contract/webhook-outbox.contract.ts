import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboxEventInput } from "../../src/ports/webhook-outbox.ts";
import { type StateFactory, type StateFixture, uid } from "./state-fixture.ts";

const LEASE = 60_000;
const attempt = (at: number, status_code: number | null, error: string | null = null) => ({
  at,
  status_code,
  error,
  duration_ms: 12,
});

/**
 * What every WebhookOutbox adapter must do (SQLite, PostgreSQL). Each test uses its own time origin,
 * far from the others', so due-time queries never pick up another test's events.
 */
export function webhookOutboxContract(adapter: string, setup: StateFactory): void {
  describe(`WebhookOutbox contract: ${adapter}`, () => {
    let fx: StateFixture;
    let epoch = Date.UTC(2030, 0, 1);
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());
    // Claims look at every due event, so each test moves time a year on: earlier tests' leftovers
    // are due then too; tests therefore assert on their own event ids only, filtering claims.
    const nextEpoch = () => {
      epoch += 365 * 24 * 3600_000;
      return epoch;
    };
    const event = (at: number, over: Partial<OutboxEventInput> = {}): OutboxEventInput => ({
      event_id: uid("evt"),
      account_id: uid("acc"),
      render_id: uid("rnd"),
      url: "https://example.com/hook",
      body: JSON.stringify({ type: "render.completed", z: 1, a: "ü" }),
      created_at: at,
      ...over,
    });

    it("stores one event per render; a second enqueue for it is a no-op", async () => {
      const t = nextEpoch();
      const e = event(t);
      expect(await fx.outbox.enqueue(e)).toEqual({ enqueued: true });
      expect(await fx.other.outbox.enqueue({ ...e, event_id: uid("evt") })).toEqual({ enqueued: false });
      expect(await fx.outbox.listAttempts(e.render_id)).toEqual({
        event_id: e.event_id,
        render_id: e.render_id,
        url: e.url,
        state: "pending",
        created_at: t,
        next_attempt_at: t,
        attempts: [],
      });
      expect(await fx.outbox.listAttempts(uid("rnd"))).toBeNull();
    });

    it("claims due events oldest first, up to the limit, and never one that is leased", async () => {
      const t = nextEpoch();
      // Drain whatever earlier tests left due, so this test sees only its own events.
      await fx.outbox.claimDue(t + 10, 10_000, LEASE * 1000);
      const [first, second, future] = [event(t), event(t + 1), event(t + 10 * LEASE)];
      for (const e of [future, second, first]) await fx.outbox.enqueue(e);
      const claimed = await fx.outbox.claimDue(t + 10, 1, LEASE);
      expect(claimed).toEqual([
        {
          event_id: first.event_id,
          account_id: first.account_id,
          render_id: first.render_id,
          url: first.url,
          body: first.body,
          signature: null,
          created_at: t,
          schedule_attempts: 0,
          claim_token: expect.any(String),
          lease_until: t + 10 + LEASE,
        },
      ]);
      expect((await fx.other.outbox.claimDue(t + 10, 10, LEASE)).map((c) => c.event_id)).toEqual([
        second.event_id,
      ]);
      expect(await fx.outbox.claimDue(t + 10, 10, LEASE)).toEqual([]);
      // The lease of `first` expires: due again (its deliverer died without recording).
      const again = await fx.other.outbox.claimDue(t + 10 + LEASE, 10, LEASE);
      expect(again.map((c) => c.event_id)).toEqual([first.event_id, second.event_id]);
      expect(again[0]?.claim_token).not.toBe(claimed[0]?.claim_token);
    });

    it("takes over a claim whose deliverer stopped beating, before its lease ends, and never a live one's", async () => {
      const t = nextEpoch();
      await fx.outbox.claimDue(t, 10_000, LEASE * 1000);
      const DEAD_AFTER = 6_000;
      const a = { delivererId: uid("dlv"), deadAfterMs: DEAD_AFTER };
      const b = { delivererId: uid("dlv"), deadAfterMs: DEAD_AFTER };
      const [held, retired] = [event(t), event(t + 1)];
      for (const e of [held, retired]) await fx.outbox.enqueue(e);
      await fx.outbox.heartbeat(a.delivererId, t);
      await fx.other.outbox.heartbeat(b.delivererId, t);
      const claimed = await fx.outbox.claimDue(t + 1, 1, LEASE, a);
      expect(claimed.map((c) => c.event_id)).toEqual([held.event_id]);
      // `a` beats: its claim stays with it; the unclaimed event goes to `b`.
      await fx.outbox.heartbeat(a.delivererId, t + 4_000);
      const other = await fx.other.outbox.claimDue(t + 9_999, 10, LEASE, b);
      expect(other.map((c) => c.event_id)).toEqual([retired.event_id]);
      // `a` stops beating (its process died): 6 s after its last heartbeat, `b` takes its claim.
      expect(await fx.other.outbox.claimDue(t + 9_999, 10, LEASE, b)).toEqual([]);
      const taken = await fx.other.outbox.claimDue(t + 10_000, 10, LEASE, b);
      expect(taken).toEqual([
        expect.objectContaining({ event_id: held.event_id, lease_until: t + 10_000 + LEASE }),
      ]);
      expect(taken[0]?.claim_token).not.toBe(claimed[0]?.claim_token);
      // A deliverer never takes its own claims back, whatever its heartbeat says.
      expect(await fx.other.outbox.claimDue(t + 60_000, 10, LEASE, b)).toEqual([]);
      // A retired deliverer's claim is taken at once; so is one of a deliverer that never beat.
      await fx.other.outbox.retire(b.delivererId);
      const after = await fx.outbox.claimDue(t + 60_001, 10, LEASE, a);
      expect(after.map((c) => c.event_id).sort()).toEqual([held.event_id, retired.event_id].sort());
      // Without liveness only the lease counts: a claim of a dead deliverer waits it out.
      const c = event(t + 70_000);
      await fx.outbox.enqueue(c);
      await fx.outbox.claimDue(t + 70_000, 10, LEASE, { delivererId: uid("dlv"), deadAfterMs: DEAD_AFTER });
      expect(await fx.other.outbox.claimDue(t + 70_000 + LEASE - 1, 10, LEASE)).toEqual([]);
      expect(
        (await fx.other.outbox.claimDue(t + 70_000 + LEASE, 10, LEASE)).map((claim) => claim.event_id),
      ).toContain(c.event_id);
    });

    it("hands each due event to exactly one of several simultaneous claimers (two processes)", async () => {
      const t = nextEpoch();
      await fx.outbox.claimDue(t, 10_000, LEASE * 1000);
      const events = Array.from({ length: 12 }, (_, i) => event(t + i));
      for (const e of events) await fx.outbox.enqueue(e);
      const batches = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? fx.other : fx).outbox.claimDue(t + 100, 3, LEASE)),
      );
      const ids = batches.flat().map((c) => c.event_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(events.map((e) => e.event_id).sort());
    });

    it("logs every attempt, settles only under the current claim, and reschedules", async () => {
      const t = nextEpoch();
      await fx.outbox.claimDue(t, 10_000, LEASE * 1000);
      const e = event(t);
      await fx.outbox.enqueue(e);
      const [first] = await fx.outbox.claimDue(t, 10, LEASE);
      await fx.outbox.recordAttempt(e.event_id, first?.claim_token as string, attempt(t + 5, 500), {
        state: "pending",
        next_attempt_at: t + 30_000,
      });
      expect(await fx.outbox.claimDue(t + 29_999, 10, LEASE)).toEqual([]);
      const [second] = await fx.other.outbox.claimDue(t + 30_000, 10, LEASE);
      expect(second?.schedule_attempts).toBe(1);
      // A stale token (the first claim's) is logged but moves nothing.
      await fx.outbox.recordAttempt(
        e.event_id,
        first?.claim_token as string,
        attempt(t + 30_001, null, "timeout"),
        {
          state: "failed",
        },
      );
      await fx.outbox.recordAttempt(e.event_id, second?.claim_token as string, attempt(t + 30_002, 204), {
        state: "delivered",
      });
      const log = await fx.outbox.listAttempts(e.render_id);
      expect(log?.state).toBe("delivered");
      expect(log?.next_attempt_at).toBeNull();
      expect(log?.attempts).toEqual([
        { attempt: 1, ...attempt(t + 5, 500) },
        { attempt: 2, ...attempt(t + 30_001, null, "timeout") },
        { attempt: 3, ...attempt(t + 30_002, 204) },
      ]);
      expect(await fx.outbox.claimDue(t + 10 * LEASE, 10_000, LEASE)).not.toContainEqual(
        expect.objectContaining({ event_id: e.event_id }),
      );
    });

    it("fixes the signature once; redelivery drops it, restarts the schedule and is due at once", async () => {
      const t = nextEpoch();
      await fx.outbox.claimDue(t, 10_000, LEASE * 1000);
      const e = event(t);
      await fx.outbox.enqueue(e);
      expect(await fx.outbox.fixSignature(e.event_id, "sha256=aaa")).toBe("sha256=aaa");
      expect(await fx.other.outbox.fixSignature(e.event_id, "sha256=bbb")).toBe("sha256=aaa");
      await expect(fx.outbox.fixSignature("evt_missing", "sha256=x")).rejects.toThrow();

      const [c] = await fx.outbox.claimDue(t, 10, LEASE);
      expect(c?.signature).toBe("sha256=aaa");
      await fx.outbox.recordAttempt(e.event_id, c?.claim_token as string, attempt(t + 1, 500), {
        state: "failed",
      });
      expect(await fx.outbox.redeliver(e.render_id, t + 1000)).toBe(true);
      expect(await fx.outbox.redeliver(uid("rnd"), t + 1000)).toBe(false);
      const [again] = await fx.outbox.claimDue(t + 1000, 10, LEASE);
      expect(again).toMatchObject({ event_id: e.event_id, signature: null, schedule_attempts: 0 });
    });
  });
}
