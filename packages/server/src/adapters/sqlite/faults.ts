import { faultCauses } from "../fault-causes.ts";

// SQLITE_BUSY (5) and SQLITE_LOCKED (6): another process (a CLI command, a backup) held the write
// lock for longer than busy_timeout. The request may be retried as it was.
const BUSY = new Set([5, 6]);

/** True when `error` means the SQLite file is locked by someone else right now. */
export function isSqliteBusy(error: unknown): boolean {
  for (const fault of faultCauses(error)) {
    if (typeof fault.errcode === "number" && BUSY.has(fault.errcode & 0xff)) return true;
  }
  return false;
}
