import type pg from "pg";
import type { Ledger, LedgerKind } from "../../ports/ledger.ts";
import { iso, type PgExecutor } from "./pool.ts";

/** Equal to the sum of the account's ledger entries (kept by the trigger of migration 3). */
export async function balanceOf(db: PgExecutor, accountId: string): Promise<number> {
  const { rows } = await db.query<{ balance: string }>(
    "SELECT balance FROM account_balances WHERE account_id = $1",
    [accountId],
  );
  return Number(rows[0]?.balance ?? 0);
}

export function createPgLedger(pool: pg.Pool): Ledger {
  return {
    balance: (accountId) => balanceOf(pool, accountId),
    async grant(accountId, amount, note, at) {
      if (!Number.isInteger(amount) || amount <= 0) throw new RangeError("grant must be a positive integer");
      await pool.query(
        "INSERT INTO ledger (account_id, kind, amount, note, created_at) VALUES ($1, 'grant', $2, $3, $4)",
        [accountId, amount, note, at],
      );
    },
    async entries(accountId, { limit, after, newestFirst }) {
      const { rows } = newestFirst
        ? await pool.query(
            "SELECT * FROM ledger WHERE account_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3",
            [accountId, after ?? Number.MAX_SAFE_INTEGER, limit],
          )
        : await pool.query("SELECT * FROM ledger WHERE account_id = $1 AND id > $2 ORDER BY id LIMIT $3", [
            accountId,
            after ?? 0,
            limit,
          ]);
      return rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind as LedgerKind,
        amount: Number(r.amount),
        renderId: (r.render_id as string | null) ?? null,
        note: (r.note as string | null) ?? null,
        createdAt: iso(r.created_at),
      }));
    },
  };
}
