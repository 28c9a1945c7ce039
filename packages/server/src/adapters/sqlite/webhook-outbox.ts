import { randomUUID } from "node:crypto";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type {
  DelivererLiveness,
  DeliveryAttemptInput,
  DeliveryLog,
  NextOutboxState,
  OutboxEventInput,
  OutboxState,
  WebhookOutbox,
} from "../../ports/webhook-outbox.ts";
import { deliveryAttemptFromRow, deliveryFromRow } from "../sql-rows.ts";

type Row = Record<string, unknown>;

/** Heartbeat rows of deliverers not seen for a day (processes long gone) are deleted. */
const FORGET_DELIVERERS_AFTER_MS = 24 * 3600_000;

/**
 * Runs `work` atomically. On its own it takes an IMMEDIATE transaction: the write lock comes first,
 * so two processes sharing the database file cannot both read the same due rows before either
 * marks them. Inside the caller's open transaction (e.g. enqueue beside a render's completion) it
 * nests as a savepoint, since SQLite refuses a second BEGIN.
 */
function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  const nested = db.isTransaction;
  db.exec(nested ? "SAVEPOINT webhook_outbox" : "BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec(nested ? "RELEASE webhook_outbox" : "COMMIT");
    return result;
  } catch (error) {
    db.exec(nested ? "ROLLBACK TO webhook_outbox; RELEASE webhook_outbox" : "ROLLBACK");
    throw error;
  }
}

const INSERT_EVENT = `
    INSERT INTO webhook_events (event_id, account_id, render_id, url, body, signature, created_at, state, next_attempt_at, request_id, traceparent)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)
    ON CONFLICT (render_id) DO NOTHING`;

/**
 * Synchronous enqueue for a caller that holds an open transaction (the render store completes a
 * render and stores its callback in one commit). Returns whether a row was added.
 */
export function insertWebhookEvent(db: DatabaseSync, event: OutboxEventInput): boolean {
  return runInsertEvent(db.prepare(INSERT_EVENT), event);
}

function runInsertEvent(insert: StatementSync, event: OutboxEventInput): boolean {
  const result = insert.run(
    event.event_id,
    event.account_id,
    event.render_id,
    event.url,
    event.body,
    event.signature ?? null,
    event.created_at,
    event.created_at,
    event.request_id ?? null,
    event.traceparent ?? null,
  );
  return Number(result.changes) === 1;
}

export function createSqliteWebhookOutbox(db: DatabaseSync): WebhookOutbox {
  const insertEvent = db.prepare(INSERT_EVENT);
  // Due: pending, its time reached, and not leased, or leased by another deliverer not seen since
  // the cutoff (its process died). Without a claimant (:me NULL) only the lease counts.
  const selectDue = db.prepare(`
    SELECT event_id FROM webhook_events e
    WHERE state = 'pending' AND next_attempt_at <= :now
      AND (lease_until IS NULL OR lease_until <= :now
        OR (claimed_by <> :me AND NOT EXISTS (
          SELECT 1 FROM webhook_deliverers d WHERE d.deliverer_id = e.claimed_by AND d.last_seen > :aliveAfter)))
    ORDER BY next_attempt_at, event_id LIMIT :limit`);
  const lease = db.prepare(`
    UPDATE webhook_events SET lease_until = ?, claim_token = ?, claimed_by = ? WHERE event_id = ?
    RETURNING event_id, account_id, render_id, url, body, signature, created_at, schedule_attempts, claim_token, lease_until, request_id, traceparent`);
  const beat = db.prepare(`
    INSERT INTO webhook_deliverers (deliverer_id, last_seen) VALUES (?, ?)
    ON CONFLICT (deliverer_id) DO UPDATE SET last_seen = excluded.last_seen`);
  const forgetDeliverers = db.prepare(
    "DELETE FROM webhook_deliverers WHERE last_seen < ? AND deliverer_id <> ?",
  );
  const retireDeliverer = db.prepare("DELETE FROM webhook_deliverers WHERE deliverer_id = ?");
  const bumpAttempts = db.prepare(
    "UPDATE webhook_events SET attempts = attempts + 1 WHERE event_id = ? RETURNING attempts",
  );
  const insertAttempt = db.prepare(
    "INSERT INTO webhook_attempts (event_id, attempt, at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const settle = db.prepare(`
    UPDATE webhook_events
    SET state = ?, next_attempt_at = ?, lease_until = NULL, claim_token = NULL, claimed_by = NULL,
        schedule_attempts = schedule_attempts + 1
    WHERE event_id = ? AND claim_token = ?`);
  const setSignatureOnce = db.prepare(
    "UPDATE webhook_events SET signature = ? WHERE event_id = ? AND signature IS NULL",
  );
  const selectSignature = db.prepare("SELECT signature FROM webhook_events WHERE event_id = ?");
  const selectEventByRender = db.prepare(
    "SELECT event_id, render_id, url, state, created_at, next_attempt_at FROM webhook_events WHERE render_id = ?",
  );
  const selectAttempts = db.prepare(
    "SELECT attempt, at, status_code, error, duration_ms FROM webhook_attempts WHERE event_id = ? ORDER BY attempt",
  );
  const restart = db.prepare(`
    UPDATE webhook_events
    SET state = 'pending', next_attempt_at = ?, lease_until = NULL, claim_token = NULL, claimed_by = NULL,
        schedule_attempts = 0, signature = NULL
    WHERE render_id = ?`);

  return {
    async enqueue(event: OutboxEventInput) {
      return { enqueued: runInsertEvent(insertEvent, event) };
    },

    async claimDue(now: number, limit: number, leaseMs: number, liveness?: DelivererLiveness) {
      if (limit <= 0) return [];
      return inTransaction(db, () => {
        const token = randomUUID();
        const me = liveness?.delivererId ?? null;
        const due = selectDue.all({
          now,
          me,
          aliveAfter: now - (liveness?.deadAfterMs ?? 0),
          limit,
        }) as Row[];
        return due.map((row) =>
          deliveryFromRow(lease.get(now + leaseMs, token, me, String(row.event_id)) as Row),
        );
      });
    },

    async heartbeat(delivererId: string, now: number) {
      inTransaction(db, () => {
        beat.run(delivererId, now);
        forgetDeliverers.run(now - FORGET_DELIVERERS_AFTER_MS, delivererId);
      });
    },

    async retire(delivererId: string) {
      retireDeliverer.run(delivererId);
    },

    async recordAttempt(
      eventId: string,
      claimToken: string,
      attempt: DeliveryAttemptInput,
      next: NextOutboxState,
    ) {
      inTransaction(db, () => {
        const bumped = bumpAttempts.get(eventId) as Row | undefined;
        if (bumped === undefined) throw new Error(`no outbox event ${eventId}`);
        insertAttempt.run(
          eventId,
          Number(bumped.attempts),
          attempt.at,
          attempt.status_code,
          attempt.error,
          Math.round(attempt.duration_ms),
        );
        settle.run(next.state, next.state === "pending" ? next.next_attempt_at : null, eventId, claimToken);
      });
    },

    async fixSignature(eventId: string, signature: string) {
      setSignatureOnce.run(signature, eventId);
      const row = selectSignature.get(eventId) as Row | undefined;
      if (row === undefined || row.signature === null) throw new Error(`no outbox event ${eventId}`);
      return String(row.signature);
    },

    async listAttempts(renderId: string): Promise<DeliveryLog | null> {
      const event = selectEventByRender.get(renderId) as Row | undefined;
      if (event === undefined) return null;
      return {
        event_id: String(event.event_id),
        render_id: String(event.render_id),
        url: String(event.url),
        state: String(event.state) as OutboxState,
        created_at: Number(event.created_at),
        next_attempt_at: event.next_attempt_at === null ? null : Number(event.next_attempt_at),
        attempts: (selectAttempts.all(String(event.event_id)) as Row[]).map(deliveryAttemptFromRow),
      };
    },

    async redeliver(renderId: string, now: number) {
      return Number(restart.run(now, renderId).changes) === 1;
    },
  };
}
