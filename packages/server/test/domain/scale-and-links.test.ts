import { describe, expect, it } from "vitest";
import { creditCost, isValidScale, outputSize } from "../../src/domain/scale.ts";
import { signOutputPath, verifyOutputSignature } from "../../src/http/output-links.ts";

describe("scale rules (spec section 8, api-decisions Renders)", () => {
  it.each([
    [1, 1],
    [1.5, 3],
    [2, 4],
    [3, 9],
    [4, 16],
    [1.01, 2],
  ])("scale %s costs %s credits", (scale, cost) => {
    expect(creditCost(scale)).toBe(cost);
  });

  it.each([0, -1, 4.01, 0.999, Number.NaN, Number.POSITIVE_INFINITY, 1e308, "2", null, undefined])(
    "rejects %s",
    (scale) => {
      expect(isValidScale(scale)).toBe(false);
    },
  );

  it("rounds the output size", () => {
    expect(outputSize({ width: 1080, height: 1350 }, 1.5)).toEqual({ width: 1620, height: 2025 });
    expect(outputSize({ width: 333, height: 101 }, 1.5)).toEqual({ width: 500, height: 152 });
  });
});

describe("signed output links", () => {
  const secret = new Uint8Array(32).fill(7);
  const now = Date.UTC(2026, 0, 1);

  const parse = (path: string) => {
    const url = new URL(path, "http://x");
    return {
      id: (url.pathname.split("/")[2] ?? "").replace(/\.png$/, ""),
      expires: url.searchParams.get("expires") ?? "",
      sig: url.searchParams.get("sig") ?? "",
    };
  };

  it("verifies within the hour and refuses after it", () => {
    const { id, expires, sig } = parse(signOutputPath(secret, "ast_abc", "png", now));
    expect(id).toBe("ast_abc");
    expect(verifyOutputSignature(secret, id, expires, sig, now + 3599_000)).toBe(true);
    expect(verifyOutputSignature(secret, id, expires, sig, now + 3600_000)).toBe(false);
  });

  it("refuses another id, expiry, secret or a malformed signature", () => {
    const { id, expires, sig } = parse(signOutputPath(secret, "ast_abc", "png", now));
    expect(verifyOutputSignature(secret, "ast_abd", expires, sig, now)).toBe(false);
    expect(verifyOutputSignature(secret, id, String(Number(expires) + 1), sig, now)).toBe(false);
    expect(verifyOutputSignature(new Uint8Array(32), id, expires, sig, now)).toBe(false);
    expect(verifyOutputSignature(secret, id, expires, sig.slice(1), now)).toBe(false);
    expect(verifyOutputSignature(secret, id, "1e20", sig, now)).toBe(false);
  });
});
