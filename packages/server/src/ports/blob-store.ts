/** Immutable image bytes by key. Keys derive from the job (e.g. `renders/rnd_x.png`), so a retried job overwrites identical bytes. */
export interface BlobStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** null when absent. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the bytes under `key`; an absent key is no error, so a retried delete succeeds. */
  delete(key: string): Promise<void>;
}
