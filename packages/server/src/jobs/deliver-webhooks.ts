import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { signCallback } from "@pictor/client";
import {
  classifyDeliveryResponse,
  type DeliveryOutcome,
  nextDeliveryState,
  type RandomSource,
} from "../domain/webhooks/index.ts";
import { OutboundError, type SafeFetch } from "../ports/safe-fetch.ts";
import { noTracing, type Tracing } from "../ports/tracing.ts";
import type { ClaimedDelivery, WebhookOutbox } from "../ports/webhook-outbox.ts";

export interface WebhookDelivererOptions {
  outbox: WebhookOutbox;
  /** Every attempt goes through it: the target is re-checked and the connection goes to the checked address. */
  safeFetch: SafeFetch;
  /** The account's CURRENT webhook secret; used once per event, to sign before its first attempt. */
  getSigningSecret: (accountId: string) => Promise<string>;
  /** Epoch ms (a Date is accepted too, like the server's Clock port). */
  clock: { now(): number | Date };
  random: RandomSource;
  /** A receiver gets 15 s per attempt to answer. */
  timeoutMs?: number;
  /** Receivers answer with a status; the body is read only to finish the exchange, so 64 KiB is plenty. */
  maxResponseBytes?: number;
  /**
   * Must exceed timeoutMs, or a slow attempt's event could be claimed and sent again meanwhile. The
   * fallback for a claim whose deliverer's liveness cannot be told (written without a heartbeat).
   */
  leaseMs?: number;
  /**
   * Names this deliverer's claims and heartbeat. Default `<host>/<pid>/<random>`: new for each
   * deliverer, and an operator reading webhook_events.claimed_by sees which process holds a claim.
   */
  delivererId?: string;
  /** How often the deliverer writes its heartbeat while it runs (started, or in runOnce). */
  heartbeatMs?: number;
  /**
   * A claim whose deliverer has not written its heartbeat for this long is taken over by another
   * deliverer without waiting for its lease: that process died. At least two heartbeats.
   */
  deadAfterMs?: number;
  /** Events claimed per runOnce; they are sent concurrently. */
  batchSize?: number;
  /** Pause of the start() loop when nothing was due. */
  pollIntervalMs?: number;
  /** Faults outside an attempt (claiming or recording failed); the events involved are retried. */
  onError?: (error: unknown) => void;
  /** Told of each attempt once recorded: what came of it and how long the receiver took. */
  onAttempt?: (outcome: "delivered" | "retrying" | "failed", seconds: number) => void;
  /** Each attempt is a span of its render's trace (the event's `traceparent`); absent: none. */
  tracing?: Tracing;
}

export interface DeliveryRunSummary {
  claimed: number;
  delivered: number;
  retrying: number;
  failed: number;
}

export interface WebhookDeliverer {
  /** Claims the due events and makes one attempt for each. */
  runOnce(): Promise<DeliveryRunSummary>;
  start(): void;
  /**
   * Runs the started loop now instead of at its next poll: this process just queued an event (a
   * render with a callback ended here). A run in progress is followed by another at once.
   */
  wake(): void;
  /**
   * Stops the loop, waits for the attempts in flight to be recorded, and retires this deliverer's
   * heartbeat (a claim it could not record goes to another deliverer at once).
   */
  stop(): Promise<void>;
}

export const USER_AGENT = "Pictor-Webhooks/1";

function toMillis(value: number | Date): number {
  return typeof value === "number" ? value : value.getTime();
}

export function createWebhookDeliverer(options: WebhookDelivererOptions): WebhookDeliverer {
  const {
    outbox,
    safeFetch,
    getSigningSecret,
    clock,
    random,
    timeoutMs = 15_000,
    maxResponseBytes = 64 * 1024,
    leaseMs = Math.max(60_000, timeoutMs * 4),
    delivererId = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`,
    heartbeatMs = 2_000,
    deadAfterMs = 3 * heartbeatMs,
    batchSize = 16,
    pollIntervalMs = 1_000,
    // Errors here are database faults (the attempt itself never throws); the default keeps them
    // visible until the server wires its logger in.
    onError = (error: unknown) => console.error("webhook deliverer:", error),
    tracing = noTracing,
  } = options;
  if (leaseMs <= timeoutMs) throw new RangeError("leaseMs must exceed timeoutMs");
  if (deadAfterMs < 2 * heartbeatMs) throw new RangeError("deadAfterMs must be at least two heartbeats");
  const now = () => toMillis(clock.now());
  const liveness = { delivererId, deadAfterMs };

  // The heartbeat: written every heartbeatMs while the loop runs or a runOnce is in flight (an attempt
  // may take timeoutMs, during which its claim must not look abandoned).
  let beatAt = Number.NEGATIVE_INFINITY;
  let beating: Promise<void> | null = null;
  const beat = (): Promise<void> => {
    beating ??= (async () => {
      const at = now();
      await outbox.heartbeat(delivererId, at);
      beatAt = at;
    })().finally(() => {
      beating = null;
    });
    return beating;
  };
  let holders = 0;
  let beatTimer: ReturnType<typeof setInterval> | undefined;
  const hold = () => {
    holders += 1;
    if (beatTimer !== undefined) return;
    beatTimer = setInterval(() => beat().catch(onError), heartbeatMs);
    beatTimer.unref();
  };
  const unhold = () => {
    holders -= 1;
    if (holders > 0 || beatTimer === undefined) return;
    clearInterval(beatTimer);
    beatTimer = undefined;
  };

  // The delivery log is shown to the customer (GET /v1/renders/:id/deliveries): SafeFetch's
  // messages are written for that (uniform, no port-scan oracle); anything else is our fault and
  // its detail goes to onError only.
  function describeFailure(error: unknown): DeliveryOutcome {
    if (error instanceof OutboundError) return { kind: "error", code: error.code, message: error.message };
    onError(error);
    return { kind: "error", code: "internal", message: "delivery could not be attempted" };
  }

  async function signatureFor(event: ClaimedDelivery): Promise<string> {
    if (event.signature !== null) return event.signature;
    const secret = await getSigningSecret(event.account_id);
    // Stored before the first send, so a crash after sending still resends the same signature.
    return outbox.fixSignature(event.event_id, signCallback(event.body, secret));
  }

  async function attempt(event: ClaimedDelivery): Promise<"delivered" | "pending" | "failed"> {
    const at = now();
    const started = performance.now();
    // Neither the URL (its query may hold the receiver's token) nor the body: the render and the attempt.
    const span = tracing.start("webhook.deliver", {
      kind: "client",
      parent: event.traceparent,
      attributes: {
        "pictor.render.id": event.render_id,
        "pictor.webhook.attempt": event.schedule_attempts + 1,
      },
    });
    let outcome: DeliveryOutcome;
    try {
      const signature = await signatureFor(event);
      const response = await safeFetch.fetch(event.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          "x-service-signature": signature,
          "x-service-event-id": event.event_id,
          // Attempt time in unix seconds; not covered by the signature (which must stay identical
          // across retries), so receivers deduplicate on the signed body's event_id.
          "x-service-timestamp": String(Math.floor(at / 1000)),
          // The request that created the render, as its answer's X-Request-Id said (not signed).
          ...(event.request_id ? { "x-request-id": event.request_id } : {}),
        },
        body: event.body,
        followRedirects: false,
        timeoutMs,
        maxBytes: maxResponseBytes,
      });
      outcome = { kind: "response", status: response.status, headers: response.headers };
    } catch (error) {
      outcome = describeFailure(error);
    }
    const durationMs = performance.now() - started;
    const verdict = classifyDeliveryResponse(outcome, now());
    const next = nextDeliveryState(verdict, event.schedule_attempts + 1, at, random);
    // Recording may fail (database away): the span still ends, and the fault goes on to onError.
    await outbox
      .recordAttempt(
        event.event_id,
        event.claim_token,
        {
          at,
          status_code: outcome.kind === "response" ? outcome.status : null,
          error: verdict.kind === "delivered" ? null : verdict.reason,
          duration_ms: durationMs,
        },
        next,
      )
      .catch((error: unknown) => {
        span.end({ error: "not_recorded" });
        throw error;
      });
    options.onAttempt?.(next.state === "pending" ? "retrying" : next.state, durationMs / 1000);
    if (outcome.kind === "response") span.set({ "http.response.status_code": outcome.status });
    span.set({ "pictor.webhook.outcome": next.state === "pending" ? "retrying" : next.state });
    span.end(
      verdict.kind === "delivered" ? {} : { error: outcome.kind === "error" ? outcome.code : "rejected" },
    );
    return next.state;
  }

  async function runOnce(): Promise<DeliveryRunSummary> {
    hold();
    try {
      return await claimAndAttempt();
    } finally {
      unhold();
    }
  }

  async function claimAndAttempt(): Promise<DeliveryRunSummary> {
    // Claims name this deliverer only while its heartbeat is fresh: a claim made without one would
    // look abandoned to the others at once.
    if (now() - beatAt >= heartbeatMs) await beat();
    const claimed = await outbox.claimDue(now(), batchSize, leaseMs, liveness);
    const summary: DeliveryRunSummary = { claimed: claimed.length, delivered: 0, retrying: 0, failed: 0 };
    const results = await Promise.allSettled(claimed.map(attempt));
    for (const result of results) {
      if (result.status === "rejected") {
        // Recording failed (database fault): the lease expires and the event is retried.
        onError(result.reason);
        summary.retrying += 1;
      } else if (result.value === "delivered") summary.delivered += 1;
      else if (result.value === "failed") summary.failed += 1;
      else summary.retrying += 1;
    }
    return summary;
  }

  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  // A wake during a run: the event may have been queued after that run's claim.
  let wokenDuringRun = false;

  function loop(): void {
    timer = undefined;
    if (!running) return;
    wokenDuringRun = false;
    const run = runOnce().then(
      (summary) => summary.claimed === batchSize,
      (error: unknown) => {
        onError(error);
        return false;
      },
    );
    inFlight = run;
    void run.then((moreDue) => {
      if (running) timer = setTimeout(loop, moreDue || wokenDuringRun ? 0 : pollIntervalMs);
    });
  }

  return {
    runOnce,
    start() {
      if (running) return;
      running = true;
      hold();
      loop();
    },
    wake() {
      if (!running) return;
      if (timer === undefined) {
        wokenDuringRun = true;
        return;
      }
      clearTimeout(timer);
      loop();
    },
    async stop() {
      if (!running) {
        await inFlight;
        return;
      }
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await inFlight;
      unhold();
      // Its attempts are recorded; a claim left (recording failed) goes to another deliverer at once.
      await outbox.retire(delivererId).catch(onError);
    },
  };
}
