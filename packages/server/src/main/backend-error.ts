/**
 * The state cannot be used: the database cannot be reached, its schema is not this build's, or the
 * object store has no such bucket. The message says which and what to do.
 */
export class BackendError extends Error {
  override name = "BackendError";
}
