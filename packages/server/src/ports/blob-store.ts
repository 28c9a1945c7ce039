import type { Readable } from "node:stream";

/** Bytes `start` to `end` of a blob, both inclusive (as HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/** An opened blob: its bytes as a stream (the whole blob, or the range asked for) and its whole size. */
export interface BlobRead {
  stream: Readable;
  /** The whole blob's size in bytes, whatever range was asked for. */
  size: number;
}

/** Immutable image bytes by key. Keys derive from the job (e.g. `renders/rnd_x.png`), so a retried job overwrites identical bytes. */
export interface BlobStore {
  /**
   * `sha256`: the bytes' SHA-256 (lowercase hex) when the caller has it already; a store that signs
   * payloads (S3's SigV4) uses it instead of hashing them again.
   */
  put(key: string, bytes: Uint8Array, known?: { sha256?: string }): Promise<void>;
  /** null when absent. Reads the whole blob into memory: for what the caller decodes anyway. */
  get(key: string): Promise<Uint8Array | null>;
  /**
   * The blob as a stream, for sending it on without holding it in memory (file routes): read as the
   * consumer reads, so a client that stops reading stops the read. `range` (inside the blob: the
   * caller resolves it against the blob's size) streams only those bytes. null when absent. The
   * caller must consume or destroy the stream.
   */
  open(key: string, range?: ByteRange): Promise<BlobRead | null>;
  /** Removes the bytes under `key`; an absent key is no error, so a retried delete succeeds. */
  delete(key: string): Promise<void>;
}
