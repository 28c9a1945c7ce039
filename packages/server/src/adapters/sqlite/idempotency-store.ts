import type { DatabaseSync, StatementSync } from "node:sqlite";
import type {
  IdempotencyBegin,
  IdempotencyScope,
  IdempotencyStore,
  StoredResponse,
} from "../../ports/idempotency-store.ts";
import { decideExistingKey } from "../idempotency-rules.ts";

interface Row {
  fingerprint: string;
  state: string;
  created_at: number;
  locked_at: number;
  status: number | null;
  headers: string | null;
  body: Uint8Array | null;
}

// Expired rows are deleted on the way (at most this often) rather than by a timer: no background
// work to start or stop, and the table never holds much more than a day of keys.
const PURGE_EVERY_MS = 60_000;

export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #db: DatabaseSync;
  readonly #claim: StatementSync;
  readonly #select: StatementSync;
  readonly #takeOver: StatementSync;
  readonly #complete: StatementSync;
  readonly #release: StatementSync;
  readonly #suspend: StatementSync;
  readonly #purge: StatementSync;
  #lastPurge = 0;

  constructor(db: DatabaseSync) {
    this.#db = db;
    // ON CONFLICT DO NOTHING makes the claim atomic: of two simultaneous requests exactly one
    // inserts (changes = 1); the other sees the row and answers 409.
    this.#claim = db.prepare(
      `INSERT INTO idempotency_keys (account_id, key, fingerprint, state, created_at, locked_at)
       VALUES (?, ?, ?, 'started', ?, ?) ON CONFLICT (account_id, key) DO NOTHING`,
    );
    this.#select = db.prepare(
      `SELECT fingerprint, state, created_at, locked_at, status, headers, body
       FROM idempotency_keys WHERE account_id = ? AND key = ?`,
    );
    // Replaces an expired row, or a stale claim of the same request, only if it is still the row
    // we looked at (compare-and-set on locked_at), so two takers cannot both win.
    this.#takeOver = db.prepare(
      `UPDATE idempotency_keys
       SET fingerprint = ?, state = 'started', created_at = ?, locked_at = ?, status = NULL, headers = NULL, body = NULL
       WHERE account_id = ? AND key = ? AND locked_at = ? AND created_at = ?`,
    );
    this.#complete = db.prepare(
      `UPDATE idempotency_keys SET state = 'completed', status = ?, headers = ?, body = ?
       WHERE account_id = ? AND key = ? AND fingerprint = ? AND state = 'started'`,
    );
    this.#release = db.prepare(
      `DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND fingerprint = ? AND state = 'started'`,
    );
    // A lock time of 0 is long expired: the next begin of the same request takes over and resumes.
    this.#suspend = db.prepare(
      `UPDATE idempotency_keys SET locked_at = 0
       WHERE account_id = ? AND key = ? AND fingerprint = ? AND state = 'started'`,
    );
    this.#purge = db.prepare(`DELETE FROM idempotency_keys WHERE created_at < ?`);
  }

  async begin(
    scope: IdempotencyScope,
    fingerprint: string,
    now: number,
    limits: { ttlMs: number; lockTimeoutMs: number },
  ): Promise<IdempotencyBegin> {
    if (now - this.#lastPurge >= PURGE_EVERY_MS) {
      this.#lastPurge = now;
      this.#purge.run(now - limits.ttlMs);
    }
    const inserted = this.#claim.run(scope.accountId, scope.key, fingerprint, now, now);
    if (Number(inserted.changes) === 1) return { kind: "started" };

    const row = this.#select.get(scope.accountId, scope.key) as Row | undefined;
    if (!row) {
      // Deleted (released or purged) between our insert and select: claim again once.
      const retried = this.#claim.run(scope.accountId, scope.key, fingerprint, now, now);
      return Number(retried.changes) === 1 ? { kind: "started" } : { kind: "in_progress" };
    }
    const decision = decideExistingKey(
      { fingerprint: row.fingerprint, state: row.state, createdAt: row.created_at, lockedAt: row.locked_at },
      fingerprint,
      now,
      limits,
    );
    if (decision.action === "take_over") {
      const taken = this.#takeOver.run(
        fingerprint,
        decision.createdAt,
        now,
        scope.accountId,
        scope.key,
        row.locked_at,
        row.created_at,
      );
      return Number(taken.changes) === 1 ? decision.started : { kind: "in_progress" };
    }
    if (decision.action !== "replay") return { kind: decision.action };
    return {
      kind: "completed",
      response: {
        status: row.status ?? 200,
        headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
        body: row.body ?? new Uint8Array(),
      },
    };
  }

  async complete(
    scope: IdempotencyScope,
    fingerprint: string,
    response: StoredResponse,
    _now: number,
  ): Promise<void> {
    this.#complete.run(
      response.status,
      JSON.stringify(response.headers),
      response.body,
      scope.accountId,
      scope.key,
      fingerprint,
    );
  }

  async release(scope: IdempotencyScope, fingerprint: string): Promise<void> {
    this.#release.run(scope.accountId, scope.key, fingerprint);
  }

  async suspend(scope: IdempotencyScope, fingerprint: string): Promise<void> {
    this.#suspend.run(scope.accountId, scope.key, fingerprint);
  }

  /** For tests and operators: how many keys are stored. */
  count(): number {
    const row = this.#db.prepare("SELECT COUNT(*) AS n FROM idempotency_keys").get() as { n: number };
    return row.n;
  }
}
