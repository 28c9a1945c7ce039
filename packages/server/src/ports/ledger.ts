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
  /**
   * One page of entries by id: `oldest` first (the default) or `newest` first; `after` is the last id
   * of the previous page in that order.
   */
  entries(
    accountId: string,
    page: { limit: number; after: number | null; newestFirst?: boolean },
  ): Promise<LedgerEntry[]>;
}
