import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import { isCreditGrant, MAX_CREDIT_GRANT } from "../../domain/accounts.ts";
import type { Ledger } from "../../ports/ledger.ts";
import { ledgerEntryFromRow, ledgerPage } from "../sql-rows.ts";
import { balanceOf } from "./balances.ts";
import { sqliteColumns } from "./database.ts";
import { sql } from "./statements.ts";

export function createSqliteLedger(db: DatabaseSync): Ledger {
  return {
    async balance(accountId) {
      return balanceOf(db, accountId);
    },
    async grant(accountId, amount, note, at) {
      if (!isCreditGrant(amount))
        throw new RangeError(`grant must be a whole number from 1 to ${MAX_CREDIT_GRANT}`);
      sql(
        db,
        "INSERT INTO ledger (account_id, kind, amount, note, created_at) VALUES (?, 'grant', ?, ?, ?)",
      ).run(accountId, amount, note, at);
    },
    async entries(accountId, page) {
      const [statement, values] = ledgerPage("?", accountId, page);
      return sql(db, statement)
        .all(...(values as SQLInputValue[]))
        .map((r) => ledgerEntryFromRow(r, sqliteColumns));
    },
  };
}
