/**
 * How a renderer runs the parts of its work that leave its thread: sharp's decodes, resizes and
 * encodes (on libuv's pool, which hands them to libvips' threads) and zlib's compression. Those
 * threads are the process's, shared by every render thread and the API, and run at normal priority
 * whatever the calling thread's: a render thread lowered to background priority still sent its
 * images to be decoded and encoded at full priority, as many at once as the pool has threads.
 */
export interface NativeWork {
  /** Runs a piece of work that has to leave the thread (sharp's). */
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Work that can be done on the calling thread instead (zlib's) is done there, at the thread's
   * own priority, rather than on libuv's pool.
   */
  inline: boolean;
}

/** Every piece at once (as many as libuv's pool runs): a renderer's default. */
export const runAtOnce: NativeWork = { run: (work) => work(), inline: false };

/**
 * One piece at a time, the others in arrival order, and zlib on the calling thread: what a
 * background render thread gives its renderer, so that its work takes at most one of the shared
 * threads (and one core at normal priority) while another account's render waits for its encode.
 */
export function oneAtATime(): NativeWork {
  let last: Promise<unknown> = Promise.resolve();
  return {
    run<T>(work: () => Promise<T>): Promise<T> {
      const turn = last.then(work);
      last = turn.catch(() => undefined);
      return turn;
    },
    inline: true,
  };
}
