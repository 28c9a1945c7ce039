// Durable outbox of completion callbacks: an event is stored when its render
// completes, in the same place as the render, and delivered at least once by the deliverer job
// (src/jobs/deliver-webhooks.ts). All times are epoch milliseconds.

export interface OutboxEventInput {
  event_id: string;
  account_id: string;
  render_id: string;
  url: string;
  /** The exact callback body bytes (buildCallbackEvent); stored and sent as is. */
  body: string;
  /**
   * `sha256=<hex>` over `body`. Usually omitted: the deliverer then signs once, with the account's
   * current secret, just before the first attempt and stores it, so every retry resends it.
   */
  signature?: string | null;
  created_at: number;
  /** The X-Request-Id of the request that created the render: sent as that header. */
  request_id?: string | null;
  /** The W3C trace context of the render's trace (tracing on): its delivery is traced under it. */
  traceparent?: string | null;
}

export type OutboxState = "pending" | "delivered" | "failed";

export interface ClaimedDelivery {
  event_id: string;
  account_id: string;
  render_id: string;
  url: string;
  body: string;
  signature: string | null;
  created_at: number;
  /** Attempts made so far in the current schedule (redeliver starts a new schedule). */
  schedule_attempts: number;
  /** Proves the claim is still this deliverer's when it records the outcome. */
  claim_token: string;
  lease_until: number;
  /** The X-Request-Id of the request that created the render; absent when none was kept. */
  request_id?: string;
  /** The W3C trace context its delivery is traced under; absent when tracing was off. */
  traceparent?: string;
}

export interface DeliveryAttemptInput {
  at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export type NextOutboxState =
  | { state: "pending"; next_attempt_at: number }
  | { state: "delivered" | "failed" };

export interface DeliveryAttemptRecord extends DeliveryAttemptInput {
  /** 1-based, across all schedules of the event. */
  attempt: number;
}

export interface DeliveryLog {
  event_id: string;
  render_id: string;
  url: string;
  state: OutboxState;
  created_at: number;
  next_attempt_at: number | null;
  attempts: DeliveryAttemptRecord[];
}

/**
 * Which deliverer is claiming, and when its claims count as abandoned: each delivering process has an
 * id and beats (`heartbeat`) every few seconds while it runs; a deliverer not seen for `deadAfterMs`
 * has died, and its claims are taken over without waiting out their lease.
 */
export interface DelivererLiveness {
  delivererId: string;
  deadAfterMs: number;
}

export interface WebhookOutbox {
  /** Stores the event; one completion event per render, so a second enqueue for it is a no-op. */
  enqueue(event: OutboxEventInput): Promise<{ enqueued: boolean }>;
  /**
   * Atomically leases up to `limit` due events (pending, next attempt reached, no live lease) for
   * `leaseMs`. A deliverer that dies without recording leaves the lease to expire and the event is
   * due again: at-least-once. `leaseMs` must exceed the send timeout. With `liveness`, the claims
   * name `delivererId`, and an event leased by another deliverer whose last heartbeat is
   * `deadAfterMs` old or more (or that has none) is due too.
   */
  claimDue(
    now: number,
    limit: number,
    leaseMs: number,
    liveness?: DelivererLiveness,
  ): Promise<ClaimedDelivery[]>;
  /**
   * Records that the deliverer is alive at `now` (one row per deliverer). Rows not updated for a day
   * (deliverers of processes long gone) are deleted on the way.
   */
  heartbeat(delivererId: string, now: number): Promise<void>;
  /** The deliverer stopped: its row goes, so a claim it still holds is taken over at once. */
  retire(delivererId: string): Promise<void>;
  /**
   * Appends the attempt to the log and moves the event to `next`. The state change applies only
   * while `claimToken` still holds the event (its lease may have expired and been claimed again, or
   * a redelivery was requested): the attempt is logged either way.
   */
  recordAttempt(
    eventId: string,
    claimToken: string,
    attempt: DeliveryAttemptInput,
    next: NextOutboxState,
  ): Promise<void>;
  /** Stores the signature if none is stored yet; returns the one stored (set once, then resent). */
  fixSignature(eventId: string, signature: string): Promise<string>;
  /** Delivery log for `GET /v1/renders/:id/deliveries`; null when the render has no callback. */
  listAttempts(renderId: string): Promise<DeliveryLog | null>;
  /**
   * Manual redelivery: the same stored bytes, due at `now`, with a fresh retry schedule. The stored
   * signature is dropped so the next attempt is signed with the account's current secret (an old
   * event may predate a rotation whose grace period has ended). False when there is no event.
   */
  redeliver(renderId: string, now: number): Promise<boolean>;
}
