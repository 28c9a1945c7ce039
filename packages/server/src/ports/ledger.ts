export type LedgerKind = "grant" | "charge" | "refund";

export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  /** Signed: grants and refunds positive, charges negative. */
  amount: number;
  renderId: string | null;
  note: string | null;
  createdAt: string;
}

/**
 * Append-only credit ledger. The balance is the sum of the entries; one charge and at most one refund
 * per render are enforced by the store (UNIQUE(render_id, kind)), not by callers.
 */
export interface Ledger {
  balance(accountId: string): Promise<number>;
  grant(accountId: string, amount: number, note: string | null, at: string): Promise<void>;
  entries(accountId: string, page: { limit: number; after: number | null }): Promise<LedgerEntry[]>;
}
