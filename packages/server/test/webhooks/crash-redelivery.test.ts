import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { verifyCallback } from "@pictor/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSafeFetch } from "../../src/adapters/fetch/safe-fetch.ts";
import { createWebhookDeliverer } from "../../src/jobs/deliver-webhooks.ts";
import type { OutboxEventInput, WebhookOutbox } from "../../src/ports/webhook-outbox.ts";
import { createFakeClock } from "./support/fake-clock.ts";
import { completionEvent, createOutboxFixture, type OutboxFixture } from "./support/outbox-fixture.ts";
import { hang, type ReceivedCallback, startReceiver, type TestReceiver } from "./support/receiver.ts";

// At-least-once (reliability matrix, "process killed after sending, before recording success"): an
// event whose deliverer dies is claimed again once that deliverer has missed its heartbeats (6 s),
// or at the latest when its lease expires, and sent again with the same bytes and the same
// signature, even if the account's secret rotated meanwhile.

const SECRET = "whsec_before_the_crash";
const ROTATED = "whsec_after_the_crash";
const LEASE_MS = 30_000;

let fx: OutboxFixture;
let receiver: TestReceiver;

beforeEach(async () => {
  fx = createOutboxFixture();
  receiver = await startReceiver([SECRET]);
});

afterEach(async () => {
  await receiver.close();
  fx.cleanup();
});

function restartedDeliverer(outbox: WebhookOutbox, clock: { now(): number }) {
  return createWebhookDeliverer({
    outbox,
    safeFetch: createSafeFetch({ allowlist: [`127.0.0.1:${receiver.port}`] }),
    // A different secret after the restart: the resent signature must be the stored one.
    getSigningSecret: async () => ROTATED,
    clock,
    random: () => 0.5,
    timeoutMs: 2_000,
    leaseMs: LEASE_MS,
  });
}

function expectIdentical(requests: ReceivedCallback[], event: OutboxEventInput): void {
  const signatures = new Set(requests.map((r) => r.headers["x-service-signature"]));
  expect(signatures.size).toBe(1);
  for (const request of requests) {
    expect(request.rawBody.toString("utf8")).toBe(event.body);
    expect(request.headers["x-service-event-id"]).toBe(event.event_id);
    expect(request.verifiedByOctokit).toBe(true);
    expect(request.verifiedByClient).toBe(true);
  }
}

describe("crash semantics of webhook delivery", () => {
  it("a deliverer that sent but died before recording: delivered again once its heartbeat is 6 s old, same bytes and signature", async () => {
    const clock = createFakeClock();
    const event = completionEvent(receiver.url(), clock.now());
    await fx.outbox.enqueue(event);
    const dying: WebhookOutbox = {
      ...fx.outbox,
      recordAttempt: async () => {
        throw new Error("process died before recording");
      },
    };
    const errors: unknown[] = [];
    const first = createWebhookDeliverer({
      outbox: dying,
      safeFetch: createSafeFetch({ allowlist: [`127.0.0.1:${receiver.port}`] }),
      getSigningSecret: async () => SECRET,
      clock,
      random: () => 0.5,
      timeoutMs: 2_000,
      leaseMs: LEASE_MS,
      onError: (error) => errors.push(error),
    });
    expect(await first.runOnce()).toMatchObject({ claimed: 1, delivered: 0 });
    expect(errors).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);

    fx.reopen();
    const second = restartedDeliverer(fx.outbox, clock);
    // Its last heartbeat was at the claim: alive for 6 s after it (well within the lease), then dead.
    clock.advance(5_999);
    expect((await second.runOnce()).claimed).toBe(0);
    clock.advance(1);
    expect(await second.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(receiver.received).toHaveLength(2);
    expectIdentical(receiver.received, event);
    expect((await fx.outbox.listAttempts(event.render_id))?.state).toBe("delivered");
  });

  it("SIGKILL of the delivering process with one event in flight and one pending: both delivered after restart", async () => {
    const inFlight = completionEvent(receiver.url("/in-flight"), Date.now());
    const pending = completionEvent(receiver.url("/pending"), Date.now() + 1);
    await fx.outbox.enqueue(inFlight);
    await fx.outbox.enqueue(pending);
    receiver.queue(hang);

    const script = fileURLToPath(new URL("./support/deliver-in-child.ts", import.meta.url));
    const child = spawn(
      process.execPath,
      [script, fx.path, `127.0.0.1:${receiver.port}`, SECRET, String(LEASE_MS)],
      { stdio: ["ignore", "inherit", "inherit"] },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    const first = await receiver.waitForRequest(1);
    expect(first.path).toBe("/in-flight");
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    fx.reopen();
    const clock = createFakeClock(Date.now());
    const restarted = restartedDeliverer(fx.outbox, clock);
    // The pending event goes at once; the one in flight waits for the dead process's lease.
    expect(await restarted.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(receiver.received.map((r) => r.path)).toEqual(["/in-flight", "/pending"]);
    clock.advance(LEASE_MS);
    expect(await restarted.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });

    const inFlightRequests = receiver.received.filter((r) => r.path === "/in-flight");
    expect(inFlightRequests).toHaveLength(2);
    expectIdentical(inFlightRequests, inFlight);
    // Never signed before the crash, so signed after it with the account's current secret.
    const pendingRequest = receiver.received.filter((r) => r.path === "/pending");
    expect(pendingRequest).toHaveLength(1);
    const [pendingDelivery] = pendingRequest;
    if (!pendingDelivery) throw new Error("pending event not delivered");
    const signature = pendingDelivery.headers["x-service-signature"];
    expect(
      verifyCallback(pendingDelivery.rawBody, typeof signature === "string" ? signature : null, ROTATED),
    ).toBe(true);
    expect((await fx.outbox.listAttempts(inFlight.render_id))?.attempts).toMatchObject([
      { status_code: 204 },
    ]);
  });
});
