import type pg from "pg";
import { isCreditGrant, MAX_CREDIT_GRANT } from "../../domain/accounts.ts";
import type { Ledger } from "../../ports/ledger.ts";
import { ledgerEntryFromRow, ledgerPage } from "../sql-rows.ts";
import { type PgExecutor, postgresColumns } from "./pool.ts";

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
      if (!isCreditGrant(amount))
        throw new RangeError(`grant must be a whole number from 1 to ${MAX_CREDIT_GRANT}`);
      await pool.query(
        "INSERT INTO ledger (account_id, kind, amount, note, created_at) VALUES ($1, 'grant', $2, $3, $4)",
        [accountId, amount, note, at],
      );
    },
    async entries(accountId, page) {
      const { rows } = await pool.query(...ledgerPage("$", accountId, page));
      return rows.map((r) => ledgerEntryFromRow(r, postgresColumns));
    },
  };
}
