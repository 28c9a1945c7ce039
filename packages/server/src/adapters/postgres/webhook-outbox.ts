import { randomUUID } from "node:crypto";
import type pg from "pg";
import type {
  DeliveryLog,
  OutboxEventInput,
  OutboxState,
  WebhookOutbox,
} from "../../ports/webhook-outbox.ts";
import { deliveryAttemptFromRow, deliveryFromRow } from "../sql-rows.ts";
import { type PgExecutor, withTransaction } from "./pool.ts";

const num = (v: unknown) => Number(v);
/** Heartbeat rows of deliverers not seen for a day (processes long gone) are deleted. */
const FORGET_DELIVERERS_AFTER_MS = 24 * 3600_000;
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * Stores a completion event on `db`, which may be an open transaction's client (the render store
 * completes a render and stores its callback in one commit). One event per render. Returns whether a
 * row was added.
 */
export async function insertWebhookEvent(db: PgExecutor, event: OutboxEventInput): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO webhook_events (event_id, account_id, render_id, url, body, signature, created_at, state, next_attempt_at, request_id, traceparent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $7, $8, $9)
     ON CONFLICT (render_id) DO NOTHING`,
    [
      event.event_id,
      event.account_id,
      event.render_id,
      event.url,
      event.body,
      event.signature ?? null,
      event.created_at,
      event.request_id ?? null,
      event.traceparent ?? null,
    ],
  );
  return res.rowCount === 1;
}

export function createPgWebhookOutbox(pool: pg.Pool): WebhookOutbox {
  return {
    async enqueue(event) {
      return { enqueued: await insertWebhookEvent(pool, event) };
    },

    async claimDue(now, limit, leaseMs, liveness) {
      if (limit <= 0) return [];
      // SKIP LOCKED: deliverers in other processes claiming at the same moment take other rows instead
      // of waiting for (and then re-leasing) these. Due: not leased, or leased by another deliverer
      // not seen since the cutoff (its process died); without a claimant ($5 NULL) only the lease counts.
      const { rows } = await pool.query(
        `WITH due AS (
           SELECT event_id FROM webhook_events w
           WHERE state = 'pending' AND next_attempt_at <= $1
             AND (lease_until IS NULL OR lease_until <= $1
               OR (claimed_by <> $5::text AND NOT EXISTS (
                 SELECT 1 FROM webhook_deliverers d WHERE d.deliverer_id = w.claimed_by AND d.last_seen > $6::bigint)))
           ORDER BY next_attempt_at, event_id COLLATE "C" LIMIT $2
           FOR UPDATE OF w SKIP LOCKED)
         UPDATE webhook_events e SET lease_until = $3, claim_token = $4, claimed_by = $5::text
         FROM due WHERE e.event_id = due.event_id
         RETURNING e.*`,
        [
          now,
          limit,
          now + leaseMs,
          randomUUID(),
          liveness?.delivererId ?? null,
          now - (liveness?.deadAfterMs ?? 0),
        ],
      );
      // RETURNING keeps no order; the port promises oldest due first.
      rows.sort(
        (a, b) =>
          num(a.next_attempt_at) - num(b.next_attempt_at) ||
          (String(a.event_id) < String(b.event_id) ? -1 : String(a.event_id) > String(b.event_id) ? 1 : 0),
      );
      return rows.map(deliveryFromRow);
    },

    async recordAttempt(eventId, claimToken, attempt, next) {
      await withTransaction(pool, async (client) => {
        const bumped = await client.query(
          "UPDATE webhook_events SET attempts = attempts + 1 WHERE event_id = $1 RETURNING attempts",
          [eventId],
        );
        if (bumped.rowCount === 0) throw new Error(`no outbox event ${eventId}`);
        await client.query(
          "INSERT INTO webhook_attempts (event_id, attempt, at, status_code, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6)",
          [
            eventId,
            num(bumped.rows[0].attempts),
            attempt.at,
            attempt.status_code,
            attempt.error,
            Math.round(attempt.duration_ms),
          ],
        );
        await client.query(
          `UPDATE webhook_events
           SET state = $1, next_attempt_at = $2, lease_until = NULL, claim_token = NULL, claimed_by = NULL,
               schedule_attempts = schedule_attempts + 1
           WHERE event_id = $3 AND claim_token = $4`,
          [next.state, next.state === "pending" ? next.next_attempt_at : null, eventId, claimToken],
        );
      });
    },

    async heartbeat(delivererId, now) {
      await pool.query(
        `WITH beat AS (
           INSERT INTO webhook_deliverers (deliverer_id, last_seen) VALUES ($1, $2)
           ON CONFLICT (deliverer_id) DO UPDATE SET last_seen = excluded.last_seen)
         DELETE FROM webhook_deliverers WHERE last_seen < $3 AND deliverer_id <> $1`,
        [delivererId, now, now - FORGET_DELIVERERS_AFTER_MS],
      );
    },

    async retire(delivererId) {
      await pool.query("DELETE FROM webhook_deliverers WHERE deliverer_id = $1", [delivererId]);
    },

    async fixSignature(eventId, signature) {
      // COALESCE keeps a signature already stored: set once, then resent on every retry.
      const { rows } = await pool.query(
        "UPDATE webhook_events SET signature = COALESCE(signature, $1) WHERE event_id = $2 RETURNING signature",
        [signature, eventId],
      );
      if (!rows[0]) throw new Error(`no outbox event ${eventId}`);
      return String(rows[0].signature);
    },

    async listAttempts(renderId): Promise<DeliveryLog | null> {
      // One snapshot for both reads: under READ COMMITTED an attempt recorded between them showed up
      // with the event's previous next_attempt_at (a retry scheduled before the attempt it follows).
      const read = await withTransaction(pool, async (client) => {
        await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const events = await client.query(
          "SELECT event_id, render_id, url, state, created_at, next_attempt_at FROM webhook_events WHERE render_id = $1",
          [renderId],
        );
        const event = events.rows[0];
        if (!event) return null;
        const attempts = await client.query(
          "SELECT attempt, at, status_code, error, duration_ms FROM webhook_attempts WHERE event_id = $1 ORDER BY attempt",
          [event.event_id],
        );
        return { event, attempts };
      });
      if (!read) return null;
      const { event, attempts } = read;
      return {
        event_id: String(event.event_id),
        render_id: String(event.render_id),
        url: String(event.url),
        state: String(event.state) as OutboxState,
        created_at: num(event.created_at),
        next_attempt_at: numOrNull(event.next_attempt_at),
        attempts: attempts.rows.map(deliveryAttemptFromRow),
      };
    },

    async redeliver(renderId, now) {
      const res = await pool.query(
        `UPDATE webhook_events
         SET state = 'pending', next_attempt_at = $1, lease_until = NULL, claim_token = NULL, claimed_by = NULL,
             schedule_attempts = 0, signature = NULL
         WHERE render_id = $2`,
        [now, renderId],
      );
      return res.rowCount === 1;
    },
  };
}
