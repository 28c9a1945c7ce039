import type { AssetLibrary } from "../ports/asset-library.ts";

/**
 * The output hashes this process is recording. A render's SHA-256 reaches the main thread just after
 * its result, and is recorded after the render is completed (and its waiting caller answered; see
 * render-job.ts). Readers of assets wait here for those in flight, so a caller who reads an output's
 * asset after its render was answered sees the hash, as if it had been recorded with the completion.
 */
export class OutputHashes {
  readonly #inFlight = new Set<Promise<void>>();

  /** `recording` must not reject (render-job.ts logs its failures). */
  track(recording: Promise<void>): void {
    this.#inFlight.add(recording);
    void recording.then(() => this.#inFlight.delete(recording));
  }

  /** Resolves once every hash tracked so far is recorded (at once when none is in flight). */
  async recorded(): Promise<void> {
    if (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  /** `library` with the reads that show hashes (get, query) waiting first for those in flight. */
  readsAfterHashes(library: AssetLibrary): AssetLibrary {
    return {
      ...library,
      get: async (accountId, id) => {
        await this.recorded();
        return library.get(accountId, id);
      },
      query: async (accountId, query) => {
        await this.recorded();
        return library.query(accountId, query);
      },
    };
  }
}
