export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Wrong arguments: the dispatcher prints the message and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** An account id the data directory does not hold: most often the wrong --data. */
export function noAccount(accountId: string, dataDir: string): UsageError {
  return new UsageError(
    `No account '${accountId}' in the data directory ${dataDir}. Check --data or PICTOR_DATA_DIR (the server's), or create one with pictor accounts create.`,
  );
}
