/**
 * Delay before each attempt, counted from the previous attempt (about 0,
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h). Ten attempts spread over about 76 hours, so
 * a receiver that is down over a weekend still gets its callbacks. Read as gaps, not as offsets from
 * creation: offsets would end after 24 h and bunch the late attempts 4 to 6 hours apart.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
];

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

/** ±10 %: receivers that failed together (an outage) are not all retried in the same second. */
export const JITTER_FRACTION = 0.1;

/** A source of uniform numbers in [0, 1), like Math.random; injected so tests are deterministic. */
export type RandomSource = () => number;

/**
 * Delay from attempt number `attemptsMade` (1-based, just failed) to the next one, with jitter; or
 * null when that was the last attempt and the event becomes `failed`.
 */
export function nextRetryDelay(attemptsMade: number, random: RandomSource): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError(`attemptsMade must be a positive integer, got ${attemptsMade}`);
  }
  const base = RETRY_DELAYS_MS[attemptsMade];
  if (base === undefined) return null;
  const unit = Math.min(Math.max(random(), 0), 1);
  return Math.round(base * (1 + (unit * 2 - 1) * JITTER_FRACTION));
}
