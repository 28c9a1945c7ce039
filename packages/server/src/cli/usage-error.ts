export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Wrong arguments: the dispatcher prints the message and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
