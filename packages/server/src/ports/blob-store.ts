/** Immutable image bytes by key. Keys derive from the job (e.g. `renders/rnd_x.png`), so a retried job overwrites identical bytes. */
export interface BlobStore {
  /**
   * `sha256`: the bytes' SHA-256 (lowercase hex) when the caller has it already; a store that signs
   * payloads (S3's SigV4) uses it instead of hashing them again.
   */
  put(key: string, bytes: Uint8Array, known?: { sha256?: string }): Promise<void>;
  /** null when absent. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the bytes under `key`; an absent key is no error, so a retried delete succeeds. */
  delete(key: string): Promise<void>;
}
