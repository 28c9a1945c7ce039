/**
 * The error and the errors it wraps (`cause`, and AggregateError's `errors`, as Node's net layer
 * reports a connection refused on every address it tried), outermost first, at most `depth` deep.
 */
export function* faultCauses(error: unknown, depth = 8): Generator<Record<string, unknown>> {
  if (depth <= 0 || typeof error !== "object" || error === null) return;
  const fault = error as Record<string, unknown>;
  yield fault;
  if (Array.isArray(fault.errors)) for (const inner of fault.errors) yield* faultCauses(inner, depth - 1);
  if ("cause" in fault) yield* faultCauses(fault.cause, depth - 1);
}

/** Socket-level failures to reach a service: refused, reset, timed out, unreachable, not resolvable. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

export function isNetworkFault(fault: Record<string, unknown>): boolean {
  return typeof fault.code === "string" && NETWORK_CODES.has(fault.code);
}
