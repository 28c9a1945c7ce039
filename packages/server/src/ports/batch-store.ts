/** A batch row as recorded: its render (charged) or its refusal. */
export interface BatchRowRecord {
  index: number;
  renderId: string | null;
  error: { code: string; message: string; [detail: string]: unknown } | null;
}

/**
 * `accepting` from the moment the record is written (before the first row) until the last row is
 * recorded; `accepted` after. A batch whose accepting process died stays `accepting` for ever: read
 * it through `batchState`, which reports it as `interrupted` once it is old enough.
 */
export type StoredBatchState = "accepting" | "accepted";

export interface BatchHeader {
  id: string;
  accountId: string;
  webhookUrl: string | null;
  metadata: Record<string, string>;
  createdAt: string;
  /** Rows submitted; the rows recorded fall short of it only while accepting or when interrupted. */
  rowCount: number;
  /**
   * The Idempotency-Key of the request that began it (stored, not read back). Lets a retry whose
   * first attempt died mid-batch find and complete it (`findByIdempotencyKey`).
   */
  idempotencyKey?: string | null;
}

export interface BatchSummary extends BatchHeader {
  state: StoredBatchState;
}

export interface BatchRecord extends BatchSummary {
  /**
   * The rows recorded so far, by index. A row with a render id whose render does not exist was cut
   * off between its reservation and its charge: not charged.
   */
  rows: BatchRowRecord[];
}

/**
 * Where batches are kept; the renders themselves live in the RenderStore. Written as the batch is
 * accepted, so that a crash mid-accept leaves every charged render reachable from its batch.
 */
export interface BatchStore {
  /** Writes the batch as `accepting`, with no rows, before the first row is charged. */
  begin(batch: BatchHeader): Promise<void>;
  /**
   * Records one row: its render id just before the charge, or its error once refused. A second call
   * for the same index replaces the first (a reservation whose charge was refused becomes its error).
   */
  recordRow(batchId: string, row: BatchRowRecord): Promise<void>;
  /** Marks the batch `accepted`: every row is recorded. */
  finish(batchId: string): Promise<void>;
  /** The newest of the account's batches begun under `idempotencyKey` at or after `since` (ISO). */
  findByIdempotencyKey(accountId: string, idempotencyKey: string, since: string): Promise<BatchRecord | null>;
  /** Within the account only (another account's batch is not found). */
  get(accountId: string, id: string): Promise<BatchRecord | null>;
  /**
   * The account's batches, newest first (created_at, then id, descending), after the batch `after`
   * in that order: how a caller whose POST got no answer finds the batch the crash left behind.
   */
  list(accountId: string, page: { limit: number; after: string | null }): Promise<BatchSummary[]>;
}
