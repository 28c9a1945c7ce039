import { faultCauses, isNetworkFault } from "../fault-causes.ts";

// SQLSTATE classes and codes that say the server cannot be used right now, not that the query is wrong:
// 08 connection exception, 57P01-57P03 shutting down / cannot connect now, 53300 too many connections.
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

// node-postgres reports a dropped or timed-out connection as a plain Error with one of these messages.
const DROPPED =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable/i;

/** True when `error` means PostgreSQL is (briefly) unreachable: the request may be retried as it was. */
export function isPostgresUnavailable(error: unknown): boolean {
  for (const fault of faultCauses(error)) {
    if (isNetworkFault(fault)) return true;
    const state = fault.code;
    if (typeof state === "string" && (state.startsWith("08") || UNAVAILABLE_STATES.has(state))) return true;
    if (typeof fault.message === "string" && DROPPED.test(fault.message)) return true;
  }
  return false;
}
