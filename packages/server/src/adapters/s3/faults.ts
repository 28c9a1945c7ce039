import { faultCauses, isNetworkFault } from "../fault-causes.ts";

// What the AWS SDK calls a store that is there but cannot serve now (after its own retries).
const UNAVAILABLE_NAMES = new Set(["ServiceUnavailable", "SlowDown", "TimeoutError", "RequestTimeout"]);

/** True when `error` means the object store is (briefly) unreachable or overloaded. */
export function isS3Unavailable(error: unknown): boolean {
  for (const fault of faultCauses(error)) {
    if (isNetworkFault(fault)) return true;
    if (typeof fault.name === "string" && UNAVAILABLE_NAMES.has(fault.name)) return true;
    const status = (fault.$metadata as { httpStatusCode?: unknown } | undefined)?.httpStatusCode;
    if (status === 502 || status === 503 || status === 504) return true;
  }
  return false;
}
