import { describe, expect, it } from "vitest";
import {
  JITTER_FRACTION,
  MAX_ATTEMPTS,
  nextDeliveryState,
  nextRetryDelay,
  RETRY_DELAYS_MS,
} from "../../src/domain/webhooks/index.ts";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe("retry schedule", () => {
  it("is about 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (api-decisions)", () => {
    expect(RETRY_DELAYS_MS).toEqual([
      0,
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      14 * HOUR,
      20 * HOUR,
      24 * HOUR,
    ]);
    expect(MAX_ATTEMPTS).toBe(10);
  });

  it("gives the delay before the next attempt, exact at the middle of the jitter range", () => {
    for (let made = 1; made < MAX_ATTEMPTS; made++) {
      expect(nextRetryDelay(made, () => 0.5)).toBe(RETRY_DELAYS_MS[made]);
    }
  });

  it("keeps jitter within ±10 % at the extremes of the random source", () => {
    expect(JITTER_FRACTION).toBe(0.1);
    for (let made = 1; made < MAX_ATTEMPTS; made++) {
      const base = RETRY_DELAYS_MS[made] ?? 0;
      expect(nextRetryDelay(made, () => 0)).toBe(Math.round(base * 0.9));
      expect(nextRetryDelay(made, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.1));
      expect(nextRetryDelay(made, () => 0.999999)).toBeGreaterThan(base);
      // A misbehaving source cannot push the delay outside the range.
      expect(nextRetryDelay(made, () => 7)).toBe(Math.round(base * 1.1));
      expect(nextRetryDelay(made, () => -3)).toBe(Math.round(base * 0.9));
    }
  });

  it("ends after the tenth attempt", () => {
    expect(nextRetryDelay(MAX_ATTEMPTS, () => 0.5)).toBeNull();
    expect(() => nextRetryDelay(0, () => 0.5)).toThrow(RangeError);
  });
});

describe("nextDeliveryState", () => {
  const at = 1_000_000;
  const middle = () => 0.5;

  it("delivers on success and fails on stop, whatever attempt it is", () => {
    expect(nextDeliveryState({ kind: "delivered" }, 3, at, middle)).toEqual({ state: "delivered" });
    expect(nextDeliveryState({ kind: "stop", reason: "410" }, 1, at, middle)).toEqual({ state: "failed" });
  });

  it("schedules a retry from the attempt time", () => {
    expect(nextDeliveryState({ kind: "retry", reason: "500" }, 1, at, middle)).toEqual({
      state: "pending",
      next_attempt_at: at + 5 * SECOND,
    });
  });

  it("waits for Retry-After when it is later than the schedule, and never earlier than the schedule", () => {
    expect(
      nextDeliveryState({ kind: "retry", reason: "429", notBefore: at + 120 * SECOND }, 1, at, middle),
    ).toEqual({ state: "pending", next_attempt_at: at + 120 * SECOND });
    expect(
      nextDeliveryState({ kind: "retry", reason: "429", notBefore: at + SECOND }, 2, at, middle),
    ).toEqual({
      state: "pending",
      next_attempt_at: at + 5 * MINUTE,
    });
  });

  it("fails after the last scheduled attempt, even when the receiver asked to wait", () => {
    expect(nextDeliveryState({ kind: "retry", reason: "500" }, MAX_ATTEMPTS, at, middle)).toEqual({
      state: "failed",
    });
    expect(
      nextDeliveryState({ kind: "retry", reason: "429", notBefore: at + HOUR }, MAX_ATTEMPTS, at, middle),
    ).toEqual({ state: "failed" });
  });
});
