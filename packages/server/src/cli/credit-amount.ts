import { MAX_CREDIT_GRANT } from "../domain/accounts.ts";
import { UsageError } from "./usage-error.ts";

/**
 * A credit amount as typed on the command line: decimal digits only (no `1e3`, `0x10`, spaces or an
 * empty string, which Number() would quietly read), at most MAX_CREDIT_GRANT.
 */
export function parseCreditAmount(text: string, what: string, options: { allowZero: boolean }): number {
  const amount = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN;
  const least = options.allowZero ? 0 : 1;
  if (!(amount >= least && amount <= MAX_CREDIT_GRANT)) {
    throw new UsageError(`${what} must be a whole number from ${least} to ${MAX_CREDIT_GRANT}, in digits.`);
  }
  return amount;
}
