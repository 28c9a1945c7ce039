import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSafeFetch } from "../../src/adapters/fetch/safe-fetch.ts";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../src/domain/webhooks/index.ts";
import {
  createWebhookDeliverer,
  USER_AGENT,
  type WebhookDeliverer,
  type WebhookDelivererOptions,
} from "../../src/jobs/deliver-webhooks.ts";
import type { OutboxEventInput } from "../../src/ports/webhook-outbox.ts";
import { createFakeClock, type FakeClock } from "./support/fake-clock.ts";
import { completionEvent, createOutboxFixture, type OutboxFixture } from "./support/outbox-fixture.ts";
import {
  answer,
  hang,
  type ReceivedCallback,
  resetConnection,
  startReceiver,
  streamOneGigabyte,
  type TestReceiver,
  trickle,
} from "./support/receiver.ts";

const SECRET = "whsec_current_for_tests";
// Small so the hanging and trickling receivers are given up on quickly; production uses 15 s.
const TIMEOUT_MS = 400;
const LEASE_MS = 5_000;

/** Scheduled gap before attempt `n + 1`, at the middle of the jitter range (random = 0.5). */
function gap(n: number): number {
  const delay = RETRY_DELAYS_MS[n];
  if (delay === undefined) throw new Error(`no retry after attempt ${n}`);
  return delay;
}

let fx: OutboxFixture;
let receiver: TestReceiver;
let clock: FakeClock;
let deliverer: WebhookDeliverer;

async function enqueue(path = "/hook"): Promise<OutboxEventInput> {
  const event = completionEvent(receiver.url(path), clock.now());
  await fx.outbox.enqueue(event);
  return event;
}

function expectSameDelivery(requests: ReceivedCallback[], event: OutboxEventInput): void {
  const first = requests[0];
  if (!first) throw new Error("no request received");
  for (const request of requests) {
    expect(request.rawBody.toString("utf8")).toBe(event.body);
    expect(request.headers["x-service-event-id"]).toBe(event.event_id);
    expect(request.headers["x-service-signature"]).toBe(first.headers["x-service-signature"]);
    expect(request.verifiedByOctokit).toBe(true);
    expect(request.verifiedByClient).toBe(true);
  }
}

async function state(event: OutboxEventInput) {
  const log = await fx.outbox.listAttempts(event.render_id);
  if (!log) throw new Error("no delivery log");
  return log;
}

/** A deliverer to this test's receiver with the shared settings; a test overrides what it varies. */
function delivererWith(overrides: Partial<WebhookDelivererOptions> = {}): WebhookDeliverer {
  return createWebhookDeliverer({
    outbox: fx.outbox,
    safeFetch: createSafeFetch({ allowlist: [`127.0.0.1:${receiver.port}`] }),
    getSigningSecret: async () => SECRET,
    clock,
    random: () => 0.5,
    timeoutMs: TIMEOUT_MS,
    leaseMs: LEASE_MS,
    ...overrides,
  });
}

beforeEach(async () => {
  fx = createOutboxFixture();
  receiver = await startReceiver([SECRET]);
  clock = createFakeClock();
  deliverer = delivererWith();
});

afterEach(async () => {
  await receiver.close();
  fx.cleanup();
});

describe("webhook deliverer over loopback HTTP", () => {
  it("delivers on 2xx with the signed body and the documented headers", async () => {
    const event = await enqueue();
    expect(await deliverer.runOnce()).toEqual({ claimed: 1, delivered: 1, retrying: 0, failed: 0 });
    const [request] = receiver.received;
    expect(request?.path).toBe("/hook");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["user-agent"]).toBe(USER_AGENT);
    expect(request?.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(request?.headers["x-service-timestamp"]).toBe(String(Math.floor(clock.now() / 1000)));
    expectSameDelivery(receiver.received, event);
    const log = await state(event);
    expect(log.state).toBe("delivered");
    expect(log.attempts).toMatchObject([{ attempt: 1, at: clock.now(), status_code: 204, error: null }]);
    clock.advance(30 * 86_400_000);
    expect((await deliverer.runOnce()).claimed).toBe(0);
  });

  it("retries a 500 on the schedule with the same event id, bytes and signature", async () => {
    receiver.queue(answer(500), answer(500));
    const event = await enqueue();
    const t0 = clock.now();
    expect(await deliverer.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    expect((await state(event)).next_attempt_at).toBe(t0 + gap(1));

    clock.advance(gap(1) - 1);
    expect((await deliverer.runOnce()).claimed).toBe(0);
    clock.advance(1);
    expect(await deliverer.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });

    clock.advance(gap(2));
    expect(await deliverer.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(receiver.received).toHaveLength(3);
    expectSameDelivery(receiver.received, event);
    // The timestamp is the attempt time, so it moves while the signature stays.
    expect(receiver.received.map((r) => r.headers["x-service-timestamp"])).toEqual([
      String(Math.floor(t0 / 1000)),
      String(Math.floor((t0 + gap(1)) / 1000)),
      String(Math.floor((t0 + gap(1) + gap(2)) / 1000)),
    ]);
    expect((await state(event)).attempts.map((a) => a.status_code)).toEqual([500, 500, 204]);
  });

  it("retries a receiver that never answers once the timeout fires", async () => {
    receiver.queue(hang);
    const event = await enqueue();
    expect(await deliverer.runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
    const [first] = (await state(event)).attempts;
    expect(first).toMatchObject({ status_code: null, error: expect.stringMatching(/^timeout/) });
    expect(first?.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    clock.advance(gap(1));
    expect(await deliverer.runOnce()).toMatchObject({ delivered: 1 });
    expectSameDelivery(receiver.received, event);
  });

  it("retries after a connection reset", async () => {
    receiver.queue(resetConnection);
    const event = await enqueue();
    expect(await deliverer.runOnce()).toMatchObject({ retrying: 1 });
    expect((await state(event)).attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^fetch_failed/),
    });
    clock.advance(gap(1));
    expect(await deliverer.runOnce()).toMatchObject({ delivered: 1 });
    expect(receiver.received).toHaveLength(2);
    expectSameDelivery(receiver.received, event);
  });

  it("does not follow a 3xx and retries it", async () => {
    receiver.queue(
      answer(302, { location: receiver.url("/elsewhere") }),
      answer(307, { location: "/elsewhere" }),
    );
    const event = await enqueue();
    expect(await deliverer.runOnce()).toMatchObject({ retrying: 1 });
    clock.advance(gap(1));
    expect(await deliverer.runOnce()).toMatchObject({ retrying: 1 });
    expect(receiver.received.map((r) => r.path)).toEqual(["/hook", "/hook"]);
    expect((await state(event)).attempts).toMatchObject([
      { status_code: 302, error: "redirect 302 not followed" },
      { status_code: 307, error: "redirect 307 not followed" },
    ]);
  });

  it("stops for good on 410", async () => {
    receiver.queue(answer(410));
    const event = await enqueue();
    expect(await deliverer.runOnce()).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 1 });
    clock.advance(30 * 86_400_000);
    expect((await deliverer.runOnce()).claimed).toBe(0);
    expect(receiver.received).toHaveLength(1);
    expect(await state(event)).toMatchObject({ state: "failed", next_attempt_at: null });
  });

  it("waits at least Retry-After on 429, although the schedule says 5 s", async () => {
    receiver.queue(answer(429, { "retry-after": "120" }));
    const event = await enqueue();
    const t0 = clock.now();
    await deliverer.runOnce();
    expect((await state(event)).next_attempt_at).toBe(t0 + 120_000);
    clock.advance(119_999);
    expect((await deliverer.runOnce()).claimed).toBe(0);
    clock.advance(1);
    expect(await deliverer.runOnce()).toMatchObject({ delivered: 1 });
    expectSameDelivery(receiver.received, event);
  });

  it("caps a 1 GiB response: reading stops early and the attempt is retried", async () => {
    const sent = { bytes: 0 };
    receiver.queue(streamOneGigabyte(sent));
    const event = await enqueue();
    expect(await deliverer.runOnce()).toMatchObject({ retrying: 1 });
    expect((await state(event)).attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^too_large/),
    });
    // Socket buffers let a few MiB out before the sender hangs up; nowhere near 1 GiB.
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it("gives up on a trickled response when the timeout fires", async () => {
    receiver.queue(trickle(20));
    const event = await enqueue();
    expect(await deliverer.runOnce()).toMatchObject({ retrying: 1 });
    expect((await state(event)).attempts[0]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^timeout/),
    });
  });

  it("marks the event failed after the last scheduled attempt, about 76 h later", async () => {
    const alwaysFailing = Array.from({ length: MAX_ATTEMPTS + 1 }, () => answer(503));
    receiver.queue(...alwaysFailing);
    const event = await enqueue();
    const t0 = clock.now();
    for (let made = 1; made <= MAX_ATTEMPTS; made++) {
      const summary = await deliverer.runOnce();
      expect(summary.claimed).toBe(1);
      if (made < MAX_ATTEMPTS) {
        expect(summary.retrying).toBe(1);
        clock.advance(gap(made));
      } else {
        expect(summary.failed).toBe(1);
      }
    }
    const log = await state(event);
    expect(log.state).toBe("failed");
    expect(log.attempts).toHaveLength(MAX_ATTEMPTS);
    expect(log.attempts.at(-1)?.at).toBe(t0 + RETRY_DELAYS_MS.reduce((sum, d) => sum + d, 0));
    clock.advance(365 * 86_400_000);
    expect((await deliverer.runOnce()).claimed).toBe(0);
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    expectSameDelivery(receiver.received, event);
  });

  it("re-checks the target at every attempt: a host that now resolves to a private address is refused", async () => {
    let address = "127.0.0.1";
    const guarded = delivererWith({
      safeFetch: createSafeFetch({
        allowlist: [`127.0.0.1:${receiver.port}`],
        lookup: async () => [{ address, family: 4 }],
      }),
    });
    receiver.queue(answer(500));
    const event = completionEvent(`http://hooks.customer.test:${receiver.port}/hook`, clock.now());
    await fx.outbox.enqueue(event);
    expect(await guarded.runOnce()).toMatchObject({ retrying: 1 });
    address = "10.0.0.7";
    clock.advance(gap(1));
    expect(await guarded.runOnce()).toMatchObject({ retrying: 1 });
    expect(receiver.received).toHaveLength(1);
    expect((await state(event)).attempts[1]).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/^blocked/),
    });
  });

  it("manual redelivery sends the same stored bytes again after a final failure", async () => {
    receiver.queue(answer(410));
    const event = await enqueue();
    await deliverer.runOnce();
    expect(await fx.outbox.redeliver(event.render_id, clock.now())).toBe(true);
    expect(await deliverer.runOnce()).toMatchObject({ delivered: 1 });
    expectSameDelivery(receiver.received, event);
    expect((await state(event)).attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 410],
      [2, 204],
    ]);
  });

  it("signs before the first attempt and resends that signature after the account's secret rotates", async () => {
    const rotated = await startReceiver([SECRET]);
    try {
      let current = SECRET;
      const rotating = delivererWith({
        safeFetch: createSafeFetch({ allowlist: [`127.0.0.1:${rotated.port}`] }),
        getSigningSecret: async () => current,
      });
      rotated.queue(answer(500));
      const event = completionEvent(rotated.url(), clock.now());
      await fx.outbox.enqueue(event);
      await rotating.runOnce();
      current = "whsec_rotated";
      clock.advance(gap(1));
      await rotating.runOnce();
      expect(rotated.received).toHaveLength(2);
      expectSameDelivery(rotated.received, event);
    } finally {
      await rotated.close();
    }
  });

  it("logs an internal failure (no secret for the account) without its detail and retries", async () => {
    const errors: unknown[] = [];
    const noSecret = delivererWith({
      getSigningSecret: async () => {
        throw new Error("account store down at db.internal:5432");
      },
      onError: (error) => errors.push(error),
    });
    const event = await enqueue();
    expect(await noSecret.runOnce()).toMatchObject({ retrying: 1 });
    expect(receiver.received).toHaveLength(0);
    expect((await state(event)).attempts[0]).toMatchObject({
      status_code: null,
      error: "internal: delivery could not be attempted",
    });
    expect(errors).toHaveLength(1);
    clock.advance(gap(1));
    expect(await deliverer.runOnce()).toMatchObject({ delivered: 1 });
    expectSameDelivery(receiver.received, event);
  });

  it("start() delivers in the background and stop() waits for the attempt in flight", async () => {
    receiver.queue(hang);
    const event = await enqueue();
    deliverer.start();
    await receiver.waitForRequest(1);
    await deliverer.stop();
    // stop() returned only after the hanging attempt timed out and was recorded.
    expect((await state(event)).attempts).toMatchObject([{ error: expect.stringMatching(/^timeout/) }]);
  });

  it("wake() sends an event queued after the loop went idle without waiting for its poll", async () => {
    // Resolves when the loop's first pass has looked (and found nothing).
    let firstPass: () => void = () => {};
    const firstPassDone = new Promise<void>((resolve) => {
      firstPass = resolve;
    });
    const idle = delivererWith({
      outbox: {
        ...fx.outbox,
        claimDue: async (now, limit, lease) => {
          const claimed = await fx.outbox.claimDue(now, limit, lease);
          firstPass();
          return claimed;
        },
      },
      // Longer than any test runs: only wake() can bring the event out before stop().
      pollIntervalMs: 3_600_000,
    });
    idle.start();
    await firstPassDone;
    const event = await enqueue();
    idle.wake();
    await receiver.waitForRequest(1);
    await idle.stop();
    expectSameDelivery(receiver.received, event);
  });
});
