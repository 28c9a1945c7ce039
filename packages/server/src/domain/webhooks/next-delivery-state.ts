import type { DeliveryVerdict } from "./classify-response.ts";
import { nextRetryDelay, type RandomSource } from "./retry-schedule.ts";

export type NextDeliveryState =
  | { state: "pending"; next_attempt_at: number }
  | { state: "delivered" }
  | { state: "failed" };

/**
 * The state after attempt number `attemptsMade` of the current schedule, made at `attemptAt`.
 * Retry-After only ever postpones: the next attempt is at the later of the schedule and the
 * receiver's request. A Retry-After on the last attempt does not add an attempt.
 */
export function nextDeliveryState(
  verdict: DeliveryVerdict,
  attemptsMade: number,
  attemptAt: number,
  random: RandomSource,
): NextDeliveryState {
  if (verdict.kind === "delivered") return { state: "delivered" };
  if (verdict.kind === "stop") return { state: "failed" };
  const delay = nextRetryDelay(attemptsMade, random);
  if (delay === null) return { state: "failed" };
  const scheduled = attemptAt + delay;
  return { state: "pending", next_attempt_at: Math.max(scheduled, verdict.notBefore ?? scheduled) };
}
