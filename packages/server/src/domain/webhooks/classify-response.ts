import type { OutboundErrorCode } from "../../ports/safe-fetch.ts";

/** What one delivery attempt produced: a response, or a transport failure from SafeFetch. */
export type DeliveryOutcome =
  | { kind: "response"; status: number; headers: Readonly<Record<string, string>> }
  | { kind: "error"; code: OutboundErrorCode | "internal"; message: string };

export type DeliveryVerdict =
  | { kind: "delivered" }
  /** The receiver said never again (410 Gone): no more attempts. */
  | { kind: "stop"; reason: string }
  /** Try again on the schedule, but not before `notBefore` (epoch ms) when the receiver asked. */
  | { kind: "retry"; reason: string; notBefore?: number };

/** A Retry-After larger than this is clamped so a receiver cannot park an event past the schedule. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** Retry-After as delta-seconds or an HTTP-date (RFC 9110 section 10.2.3), as epoch ms; else null. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) {
    return now + Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  }
  // Every HTTP-date form starts with a day name; Date.parse alone would also take "-5" as a year.
  if (!/^[A-Za-z]{3,9},? /.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(date, now), now + MAX_RETRY_AFTER_MS);
}

/**
 * Any 2xx is success; 410 stops; redirects are not followed, so a 3xx is a
 * failed attempt; 429 and 503 honour Retry-After; every other status and every transport failure
 * (timeout, reset, refused, blocked by the address check, oversized response) is retried.
 */
export function classifyDeliveryResponse(outcome: DeliveryOutcome, now: number): DeliveryVerdict {
  if (outcome.kind === "error") return { kind: "retry", reason: `${outcome.code}: ${outcome.message}` };
  const { status } = outcome;
  if (status >= 200 && status < 300) return { kind: "delivered" };
  if (status === 410) return { kind: "stop", reason: "receiver answered 410 Gone" };
  if (status >= 300 && status < 400) {
    return { kind: "retry", reason: `redirect ${status} not followed` };
  }
  if (status === 429 || status === 503) {
    const notBefore = parseRetryAfter(outcome.headers["retry-after"], now);
    return notBefore === null
      ? { kind: "retry", reason: `receiver answered ${status}` }
      : { kind: "retry", reason: `receiver answered ${status} with Retry-After`, notBefore };
  }
  return { kind: "retry", reason: `receiver answered ${status}` };
}
