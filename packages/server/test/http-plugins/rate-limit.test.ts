import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultRateLimitKey } from "../../src/http/plugins/rate-limit.ts";
import { tokenBucketStore } from "../../src/http/plugins/token-bucket-store.ts";
import { json, startApp, type TestApp } from "./app.ts";

let clock = 1_000_000;
let t: TestApp;
beforeAll(async () => {
  t = await startApp(
    (app) => {
      app.get("/v1/ping", async () => ({ ok: true }));
      app.get("/v1/open", { config: { rateLimit: false } }, async () => ({ ok: true }));
    },
    { rateLimit: { burst: 3, refillPerSecond: 1, now: () => clock } },
  );
});
afterAll(() => t.close());

const ping = (account: string) =>
  fetch(`${t.url}/v1/ping`, { headers: { authorization: `Bearer ${account}` } });

describe("rate limit", () => {
  it("allows a burst, then answers 429 rate_limited with Retry-After and the draft headers", async () => {
    const allowed = [await ping("acct_rl"), await ping("acct_rl"), await ping("acct_rl")];
    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(allowed[0]?.headers.get("ratelimit-policy")).toBe('"burst";q=3;w=3');
    expect(allowed.map((r) => r.headers.get("ratelimit"))).toEqual([
      '"burst";r=2;t=1',
      '"burst";r=1;t=2',
      '"burst";r=0;t=3',
    ]);
    expect(allowed[0]?.headers.get("x-ratelimit-limit")).toBeNull();

    const refused = await ping("acct_rl");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("ratelimit")).toBe('"burst";r=0;t=1');
    expect(refused.headers.get("ratelimit-policy")).toBe('"burst";q=3;w=3');
    const body = await json(refused);
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.request_id).toBe(refused.headers.get("x-request-id"));
  });

  it("keeps other keys unaffected and refills over time", async () => {
    expect((await ping("acct_other")).status).toBe(200);
    expect((await ping("acct_rl")).status).toBe(429);
    clock += 1000;
    expect((await ping("acct_rl")).status).toBe(200);
    expect((await ping("acct_rl")).status).toBe(429);
  });

  it("skips routes with rateLimit: false", async () => {
    const response = await fetch(`${t.url}/v1/open`, { headers: { authorization: "Bearer acct_rl" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit")).toBeNull();
  });
});

describe("token bucket store", () => {
  it("refills continuously at max / timeWindow", () => {
    let now = 0;
    const Store = tokenBucketStore({ now: () => now });
    const store = new Store({});
    const results: { current: number; ttl: number }[] = [];
    const take = () => store.incr("k", (_e, r) => r && results.push(r), 10_000, 10);
    for (let i = 0; i < 11; i++) take();
    expect(results.at(-1)).toEqual({ current: 11, ttl: 1000 });
    now = 500;
    take();
    expect(results.at(-1)).toEqual({ current: 11, ttl: 500 });
    now = 1000;
    take();
    expect(results.at(-1)?.current).toBe(10);
  });
});

describe("rate limit key", () => {
  const requestWith = (fields: Record<string, unknown>) =>
    ({ headers: {}, ip: "192.0.2.7", ...fields }) as unknown as FastifyRequest;

  it("uses the hashed bearer token (one bucket per API key), else an account auth set, else the IP", () => {
    expect(defaultRateLimitKey(requestWith({ accountId: "acct_1" }))).toBe("acct:acct_1");
    const byToken = defaultRateLimitKey(requestWith({ headers: { authorization: "Bearer sk_live_secret" } }));
    expect(byToken).toMatch(/^key:[0-9a-f]{64}$/);
    expect(byToken).not.toContain("secret");
    // Two keys of the same account: two buckets.
    const keyOf = (token: string) =>
      defaultRateLimitKey(
        requestWith({ accountId: "acct_1", headers: { authorization: `Bearer ${token}` } }),
      );
    expect(keyOf("sk_live_one")).not.toBe(keyOf("sk_live_two"));
    expect(keyOf("sk_live_one")).toBe(keyOf("sk_live_one"));
    // After auth: the key's id, without hashing the secret a second time.
    expect(
      defaultRateLimitKey(
        requestWith({
          accountId: "acct_1",
          apiKeyId: "key_1",
          headers: { authorization: "Bearer sk_live_one" },
        }),
      ),
    ).toBe("key:key_1");
    expect(defaultRateLimitKey(requestWith({}))).toBe("ip:192.0.2.7");
  });

  it("does not pool every anonymous caller under the empty account id", () => {
    expect(defaultRateLimitKey(requestWith({ accountId: "" }))).toBe("ip:192.0.2.7");
  });
});
