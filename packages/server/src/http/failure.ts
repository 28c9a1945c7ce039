import type { Failure, Result } from "../domain/failure.ts";
import { ApiError } from "./errors.ts";

/** Domain failures carry API error codes already; this is where they become HTTP errors. */
export function orThrow<T>(result: Result<T>): T {
  if (!result.ok) throw toApiError(result);
  return result.value;
}

export function toApiError(failure: Failure): ApiError {
  const headers =
    failure.retryAfter === undefined ? undefined : { "Retry-After": String(failure.retryAfter) };
  return new ApiError(failure.code, failure.message, failure.details ?? {}, headers);
}

export const notFound = (what: string) => new ApiError("not_found", `No ${what}.`);
