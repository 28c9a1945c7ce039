import type { DatabaseSync } from "node:sqlite";
import type { Ledger, LedgerKind } from "../../ports/ledger.ts";
import { balanceOf } from "./balances.ts";
import { sql } from "./statements.ts";

export function createSqliteLedger(db: DatabaseSync): Ledger {
  return {
    async balance(accountId) {
      return balanceOf(db, accountId);
    },
    async grant(accountId, amount, note, at) {
      if (!Number.isInteger(amount) || amount <= 0) throw new RangeError("grant must be a positive integer");
      sql(
        db,
        "INSERT INTO ledger (account_id, kind, amount, note, created_at) VALUES (?, 'grant', ?, ?, ?)",
      ).run(accountId, amount, note, at);
    },
    async entries(accountId, { limit, after, newestFirst }) {
      const rows = newestFirst
        ? sql(db, "SELECT * FROM ledger WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?").all(
            accountId,
            after ?? Number.MAX_SAFE_INTEGER,
            limit,
          )
        : sql(db, "SELECT * FROM ledger WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?").all(
            accountId,
            after ?? 0,
            limit,
          );
      return rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind as LedgerKind,
        amount: Number(r.amount),
        renderId: (r.render_id as string | null) ?? null,
        note: (r.note as string | null) ?? null,
        createdAt: String(r.created_at),
      }));
    },
  };
}
