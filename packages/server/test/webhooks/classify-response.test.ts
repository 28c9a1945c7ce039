import { describe, expect, it } from "vitest";
import {
  classifyDeliveryResponse,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
} from "../../src/domain/webhooks/index.ts";

const now = Date.UTC(2026, 10, 22, 12, 0, 0);
const response = (status: number, headers: Record<string, string> = {}) =>
  ({ kind: "response", status, headers }) as const;

describe("classifyDeliveryResponse", () => {
  it("treats every 2xx as delivered", () => {
    for (const status of [200, 201, 202, 204, 299]) {
      expect(classifyDeliveryResponse(response(status), now)).toEqual({ kind: "delivered" });
    }
  });

  it("stops on 410 Gone", () => {
    expect(classifyDeliveryResponse(response(410), now).kind).toBe("stop");
  });

  it("retries a 3xx: redirects are not followed", () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const verdict = classifyDeliveryResponse(response(status, { location: "http://elsewhere/" }), now);
      expect(verdict).toEqual({ kind: "retry", reason: `redirect ${status} not followed` });
    }
  });

  it("retries 4xx other than 410 and every 5xx without a wait", () => {
    for (const status of [400, 401, 404, 408, 500, 502, 504]) {
      const verdict = classifyDeliveryResponse(response(status, { "retry-after": "600" }), now);
      expect(verdict.kind).toBe("retry");
      expect(verdict.kind === "retry" && verdict.notBefore).toBeUndefined();
    }
  });

  it("honours Retry-After on 429 and 503, in seconds or as an HTTP date", () => {
    expect(classifyDeliveryResponse(response(429, { "retry-after": "120" }), now)).toMatchObject({
      kind: "retry",
      notBefore: now + 120_000,
    });
    const date = new Date(now + 3_600_000).toUTCString();
    expect(classifyDeliveryResponse(response(503, { "retry-after": date }), now)).toMatchObject({
      kind: "retry",
      notBefore: now + 3_600_000,
    });
    expect(classifyDeliveryResponse(response(429), now)).toEqual({
      kind: "retry",
      reason: "receiver answered 429",
    });
  });

  it("retries transport failures: timeout, reset, blocked target, oversized response", () => {
    for (const code of ["timeout", "fetch_failed", "blocked", "too_large", "internal"] as const) {
      expect(classifyDeliveryResponse({ kind: "error", code, message: "x" }, now)).toEqual({
        kind: "retry",
        reason: `${code}: x`,
      });
    }
  });
});

describe("parseRetryAfter", () => {
  it("ignores garbage and clamps to 24 h so a receiver cannot park an event past the schedule", () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
    expect(parseRetryAfter("99999999", now)).toBe(now + MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).toBe(now);
    expect(parseRetryAfter(" 0 ", now)).toBe(now);
  });
});
