import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../src/domain/ids.ts";
import { createAuthenticator } from "../../src/http/auth.ts";
import { ApiError } from "../../src/http/errors.ts";
import type { AccountStore } from "../../src/ports/account-store.ts";

// The authenticator with its per-IP failure budget, against a counting key store and a fake clock:
// what the HTTP test (api/auth-failures.test.ts) cannot see, namely that an address over budget
// causes no key lookups, and that a successful request does not touch the budget at all.

const VALID = `sk_live_${"v".repeat(43)}`;
const REVOKED = `sk_live_${"r".repeat(43)}`;

function setup() {
  let now = 1_000_000;
  let clockReads = 0;
  let lookups = 0;
  const hex = (secret: string) => Buffer.from(sha256(secret)).toString("hex");
  const live = new Map([
    [hex(VALID), "key_valid"],
    [hex(REVOKED), "key_revoked"],
  ]);
  const accounts = {
    async findKeyByHash(hash: Uint8Array) {
      lookups++;
      const id = live.get(Buffer.from(hash).toString("hex"));
      return id === undefined ? null : { key: { id, accountId: "acct_1" }, hash };
    },
    async touchKey() {},
  } as unknown as AccountStore;
  const authenticate = createAuthenticator({
    accounts,
    clock: { now: () => new Date(now) },
    failureLimit: {
      burst: 3,
      refillPerSecond: 1,
      now: () => {
        clockReads++;
        return now;
      },
    },
  });
  let ipReads = 0;
  const attempt = async (secret: string | null, ip = "192.0.2.1") => {
    const request = {
      headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
      get ip() {
        ipReads++;
        return ip;
      },
    } as unknown as FastifyRequest;
    try {
      await authenticate(request);
      return 200;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return error.code === "rate_limited" ? [429, error.headers["Retry-After"]] : error.statusCode;
    }
  };
  return {
    attempt,
    advance: (ms: number) => {
      now += ms;
    },
    revoke: (secret: string) => live.delete(hex(secret)),
    counts: () => ({ lookups, clockReads, ipReads }),
  };
}

describe("failed authentications per IP address", () => {
  it("successes never touch the budget: no IP read, no clock read", async () => {
    const s = setup();
    for (let i = 0; i < 10; i++) expect(await s.attempt(VALID)).toBe(200);
    expect(s.counts()).toEqual({ lookups: 10, clockReads: 0, ipReads: 0 });
  });

  it("after `burst` failures an address gets 429 with Retry-After and no lookup; valid keys still get in", async () => {
    const s = setup();
    expect(await s.attempt(VALID)).toBe(200); // accepted once, so remembered
    expect(await s.attempt(null)).toBe(401);
    expect(await s.attempt("sk_live_madeup1")).toBe(401);
    expect(await s.attempt("sk_live_madeup2")).toBe(401);
    const lookups = s.counts().lookups;
    for (let i = 0; i < 50; i++) expect(await s.attempt(`sk_live_flood${i}`)).toEqual([429, "1"]);
    expect(await s.attempt(null)).toEqual([429, "1"]);
    expect(s.counts().lookups).toBe(lookups); // the flood reached no lookup
    expect(await s.attempt(VALID)).toBe(200);
    expect(await s.attempt("sk_live_other", "192.0.2.2")).toBe(401); // another address, its own budget
  });

  it("refills one failure a second: then one lookup, and 429 again", async () => {
    const s = setup();
    for (const k of ["a", "b", "c"]) expect(await s.attempt(`sk_live_${k}`)).toBe(401);
    expect(await s.attempt("sk_live_d")).toEqual([429, "1"]);
    s.advance(1000);
    const lookups = s.counts().lookups;
    expect(await s.attempt("sk_live_e")).toBe(401);
    expect(s.counts().lookups).toBe(lookups + 1);
    expect(await s.attempt("sk_live_f")).toEqual([429, "1"]);
    s.advance(3000);
    for (const k of ["g", "h", "i"]) expect(await s.attempt(`sk_live_${k}`)).toBe(401);
  });

  it("a revoked key, even one accepted before, fails like any other once over budget", async () => {
    const s = setup();
    expect(await s.attempt(REVOKED)).toBe(200);
    s.revoke(REVOKED);
    for (const k of ["a", "b", "c"]) expect(await s.attempt(`sk_live_${k}`)).toBe(401);
    expect(await s.attempt(REVOKED)).toEqual([429, "1"]);
  });

  it("once every address has its budget back, successes are free again", async () => {
    const s = setup();
    for (const k of ["a", "b", "c", "d"]) await s.attempt(`sk_live_${k}`);
    s.advance(1000);
    expect(await s.attempt(VALID)).toBe(200); // sweeps the address that got a token back
    const before = s.counts();
    for (let i = 0; i < 5; i++) expect(await s.attempt(VALID)).toBe(200);
    expect(s.counts()).toMatchObject({ clockReads: before.clockReads, ipReads: before.ipReads });
  });
});
