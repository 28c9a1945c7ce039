import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IdempotencyScope } from "../../src/ports/idempotency-store.ts";
import { type StateFactory, type StateFixture, uid } from "./state-fixture.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const LIMITS = { ttlMs: 24 * 3600_000, lockTimeoutMs: 60_000 };

/** What every IdempotencyStore adapter must do (SQLite, PostgreSQL). */
export function idempotencyContract(adapter: string, setup: StateFactory): void {
  describe(`IdempotencyStore contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());
    const scope = (): IdempotencyScope => ({ accountId: uid("acc"), key: uid("idem") });
    const response = () => ({
      status: 202,
      headers: { "content-type": "application/json", location: "/v1/renders/rnd_1" },
      body: new Uint8Array(randomBytes(300)),
    });

    it("lets exactly one of many simultaneous requests (two processes) claim a key", async () => {
      const s = scope();
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? fx.other : fx).idempotency.begin(s, "fp", NOW, LIMITS)),
      );
      expect(outcomes.filter((o) => o.kind === "started")).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === "in_progress")).toHaveLength(9);
    });

    it("replays the stored response byte for byte to a retry with the same fingerprint", async () => {
      const s = scope();
      const first = response();
      await fx.idempotency.begin(s, "fp", NOW, LIMITS);
      await fx.idempotency.complete(s, "fp", first, NOW + 5);
      const replay = await fx.other.idempotency.begin(s, "fp", NOW + 10, LIMITS);
      expect(replay).toEqual({ kind: "completed", response: first });
    });

    it("reports a different request under a used key as a mismatch, running or finished", async () => {
      const s = scope();
      await fx.idempotency.begin(s, "fp", NOW, LIMITS);
      expect(await fx.idempotency.begin(s, "other", NOW + 1, LIMITS)).toEqual({ kind: "mismatch" });
      await fx.idempotency.complete(s, "fp", response(), NOW + 2);
      expect(await fx.idempotency.begin(s, "other", NOW + 3, LIMITS)).toEqual({ kind: "mismatch" });
    });

    it("scopes keys by account", async () => {
      const s = scope();
      await fx.idempotency.begin(s, "fp", NOW, LIMITS);
      expect(await fx.idempotency.begin({ ...s, accountId: uid("acc") }, "other", NOW, LIMITS)).toEqual({
        kind: "started",
      });
    });

    it("frees a released key for the retry", async () => {
      const s = scope();
      await fx.idempotency.begin(s, "fp", NOW, LIMITS);
      await fx.idempotency.release(s, "fp");
      expect(await fx.idempotency.begin(s, "fp", NOW + 1, LIMITS)).toEqual({ kind: "started" });
    });

    it("suspends a claim: the same request resumes at once (from its first claim), another body is a mismatch", async () => {
      const s = scope();
      await fx.idempotency.begin(s, "fp", NOW, LIMITS);
      await fx.idempotency.suspend(s, "fp");
      expect(await fx.other.idempotency.begin(s, "different", NOW + 1, LIMITS)).toEqual({ kind: "mismatch" });
      expect(await fx.other.idempotency.begin(s, "fp", NOW + 2, LIMITS)).toEqual({
        kind: "started",
        resumeSince: NOW,
      });
      // Taken over, the key is locked again for the resuming request.
      expect(await fx.idempotency.begin(s, "fp", NOW + 3, LIMITS)).toEqual({ kind: "in_progress" });
    });

    it("lets the same request take over a claim whose process died, once", async () => {
      const s = scope();
      await fx.idempotency.begin(s, "fp", NOW, LIMITS);
      expect(await fx.idempotency.begin(s, "fp", NOW + LIMITS.lockTimeoutMs - 1, LIMITS)).toEqual({
        kind: "in_progress",
      });
      const later = NOW + LIMITS.lockTimeoutMs;
      const takers = await Promise.all([
        fx.idempotency.begin(s, "fp", later, LIMITS),
        fx.other.idempotency.begin(s, "fp", later, LIMITS),
      ]);
      expect(takers.map((t) => t.kind).sort()).toEqual(["in_progress", "started"]);
      // The taker learns since when the dead request may have created things (its claim's time).
      expect(takers.find((t) => t.kind === "started")).toEqual({ kind: "started", resumeSince: NOW });
      expect(await fx.idempotency.begin(s, "different", later, LIMITS)).toEqual({ kind: "mismatch" });
      // The taker dies too: the next retry resumes from the first claim's time, not the taker's.
      const again = later + LIMITS.lockTimeoutMs;
      expect(await fx.other.idempotency.begin(s, "fp", again, LIMITS)).toEqual({
        kind: "started",
        resumeSince: NOW,
      });
    });

    it("treats an entry older than the TTL as absent, whatever its fingerprint", async () => {
      const s = scope();
      await fx.idempotency.begin(s, "fp", NOW, LIMITS);
      await fx.idempotency.complete(s, "fp", response(), NOW);
      expect(await fx.idempotency.begin(s, "new", NOW + LIMITS.ttlMs, LIMITS)).toEqual({ kind: "started" });
    });
  });
}
