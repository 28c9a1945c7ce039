import type { DatabaseSync } from "node:sqlite";
import { sql } from "./statements.ts";

/**
 * Equal to the sum of the account's ledger entries: a running total kept by the database itself
 * (migration 7 in migrations.ts: a trigger on every ledger insert, a CHECK that refuses a balance below
 * zero), so reading it does not scan the ledger.
 */
export function balanceOf(db: DatabaseSync, accountId: string): number {
  const r = sql(db, "SELECT balance FROM account_balances WHERE account_id = ?").get(accountId);
  return Number(r?.balance ?? 0);
}
