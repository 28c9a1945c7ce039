import type pg from "pg";
import type {
  IdempotencyBegin,
  IdempotencyScope,
  IdempotencyStore,
  StoredResponse,
} from "../../ports/idempotency-store.ts";
import { decideExistingKey } from "../idempotency-rules.ts";

// Expired rows are deleted on the way (at most this often per process) rather than by a timer, as in
// the SQLite store: no background work, and the table holds little more than a TTL of keys.
const PURGE_EVERY_MS = 60_000;

interface Row {
  fingerprint: string;
  state: string;
  created_at: string;
  locked_at: string;
  status: number | null;
  headers: string | null;
  body: Buffer | null;
}

export function createPgIdempotencyStore(pool: pg.Pool): IdempotencyStore {
  let lastPurge = 0;
  // ON CONFLICT DO NOTHING makes the claim atomic across processes: of simultaneous requests exactly
  // one inserts (rowCount 1); the others see its row.
  const claim = async (scope: IdempotencyScope, fingerprint: string, now: number) =>
    (
      await pool.query(
        `INSERT INTO idempotency_keys (account_id, key, fingerprint, state, created_at, locked_at)
         VALUES ($1, $2, $3, 'started', $4, $4) ON CONFLICT (account_id, key) DO NOTHING`,
        [scope.accountId, scope.key, fingerprint, now],
      )
    ).rowCount === 1;

  return {
    async begin(scope, fingerprint, now, limits): Promise<IdempotencyBegin> {
      if (now - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = now;
        await pool.query("DELETE FROM idempotency_keys WHERE created_at < $1", [now - limits.ttlMs]);
      }
      if (await claim(scope, fingerprint, now)) return { kind: "started" };

      const { rows } = await pool.query<Row>(
        `SELECT fingerprint, state, created_at, locked_at, status, headers, body
         FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
        [scope.accountId, scope.key],
      );
      const row = rows[0];
      if (!row) {
        // Released or purged between our insert and select: claim again once.
        return (await claim(scope, fingerprint, now)) ? { kind: "started" } : { kind: "in_progress" };
      }
      const createdAt = Number(row.created_at);
      const lockedAt = Number(row.locked_at);
      const decision = decideExistingKey(
        { fingerprint: row.fingerprint, state: row.state, createdAt, lockedAt },
        fingerprint,
        now,
        limits,
      );
      if (decision.action === "take_over") {
        // Compare-and-set on the row we looked at, so two takers cannot both win.
        const taken = await pool.query(
          `UPDATE idempotency_keys
           SET fingerprint = $1, state = 'started', created_at = $2, locked_at = $3, status = NULL, headers = NULL, body = NULL
           WHERE account_id = $4 AND key = $5 AND locked_at = $6 AND created_at = $7`,
          [fingerprint, decision.createdAt, now, scope.accountId, scope.key, lockedAt, createdAt],
        );
        return taken.rowCount === 1 ? decision.started : { kind: "in_progress" };
      }
      if (decision.action !== "replay") return { kind: decision.action };
      return {
        kind: "completed",
        response: {
          status: row.status ?? 200,
          headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
          body: row.body ? new Uint8Array(row.body) : new Uint8Array(),
        },
      };
    },
    async complete(scope, fingerprint, response: StoredResponse) {
      await pool.query(
        `UPDATE idempotency_keys SET state = 'completed', status = $1, headers = $2, body = $3
         WHERE account_id = $4 AND key = $5 AND fingerprint = $6 AND state = 'started'`,
        [
          response.status,
          JSON.stringify(response.headers),
          Buffer.from(response.body),
          scope.accountId,
          scope.key,
          fingerprint,
        ],
      );
    },
    async release(scope, fingerprint) {
      await pool.query(
        "DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND fingerprint = $3 AND state = 'started'",
        [scope.accountId, scope.key, fingerprint],
      );
    },
    async suspend(scope, fingerprint) {
      // A lock time of 0 is long expired: the next begin of the same request takes over and resumes.
      await pool.query(
        "UPDATE idempotency_keys SET locked_at = 0 WHERE account_id = $1 AND key = $2 AND fingerprint = $3 AND state = 'started'",
        [scope.accountId, scope.key, fingerprint],
      );
    },
  };
}
