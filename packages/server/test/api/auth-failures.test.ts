import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, api, newAccount, startTestServer, type TestServer } from "./support.ts";

// Failed authentications count against the caller's IP address (auth.ts, AuthFailureBudget): a
// caller sending a different made-up key every time cannot flood the key lookup. Over real HTTP on
// 127.0.0.1; a budget of 5 that refills too slowly (1 per 100 s) to move during the test.
const BUDGET = 5;

let t: TestServer;
let key: string;
/** A second key of the account, used once before the flood and revoked during it. */
let spare: { id: string; key: string };
beforeAll(async () => {
  t = await startTestServer({
    env: { PICTOR_AUTH_FAILURES_BURST: String(BUDGET), PICTOR_AUTH_FAILURES_PER_SECOND: "0.01" },
  });
  ({ key } = await newAccount(t));
  spare = (await api(t, "POST", "/v1/keys", { key, body: { name: "spare" } })).body;
  expect((await api(t, "GET", "/v1/account", { key: spare.key })).status).toBe(200);
});
afterAll(() => t?.close());

const madeUpKey = () => `sk_live_${randomBytes(32).toString("base64url")}`;

/** The body as sent, with its request id (the one part allowed to differ) blanked out. */
function withoutRequestId(res: ApiResponse): string {
  const id = res.headers.get("x-request-id") ?? "";
  expect(id).not.toBe("");
  return JSON.stringify(res.body).replaceAll(id, "<request id>");
}

describe("a per-IP budget of failed authentications", () => {
  it("valid requests cost nothing; failures get the identical 401 until the budget is used up, then 429 with Retry-After", async () => {
    // Successes first: they must not use up anything.
    for (let i = 0; i < BUDGET * 2; i++)
      expect((await api(t, "GET", "/v1/account", { key })).status).toBe(200);

    const failures: Record<string, string>[] = [
      {},
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: `Bearer ${madeUpKey()}` },
      { authorization: `Bearer ${madeUpKey()}` },
      { authorization: `Bearer ${key}x` },
    ];
    expect(failures).toHaveLength(BUDGET);
    const bodies = new Set<string>();
    for (const headers of failures) {
      const res = await api(t, "GET", "/v1/templates", { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(res.headers.get("retry-after")).toBeNull();
      expect(res.body.error.request_id).toBe(res.headers.get("x-request-id"));
      bodies.add(withoutRequestId(res));
    }
    expect([...bodies]).toHaveLength(1);
    expect(JSON.parse([...bodies][0] as string).error.code).toBe("unauthorized");

    // Over budget: whatever the failure, 429 in the per-key limiter's shape, and no 401.
    const overBudget: Record<string, string>[] = [
      { authorization: `Bearer ${madeUpKey()}` },
      {},
      { authorization: "Bearer" },
    ];
    for (const headers of overBudget) {
      const res = await api(t, "POST", "/v1/renders", { headers, body: { junk: true } });
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe("rate_limited");
      expect(res.body.error.request_id).toBe(res.headers.get("x-request-id"));
      expect(res.body.error.message).toMatch(/retry in \d+ s/);
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(90); // one failure back every 100 s
      expect(retryAfter).toBeLessThanOrEqual(100);
      expect(res.headers.get("www-authenticate")).toBeNull();
    }
  });

  it("a valid key from the same address still gets in: keys are limited per key, not by the address's failures", async () => {
    for (let i = 0; i < BUDGET * 2; i++) {
      const res = await api(t, "GET", "/v1/account", { key });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toMatch(/^"burst";q=100000;/); // the per-key limit
    }
    // Still over budget for bad keys.
    expect((await api(t, "GET", "/v1/account", { key: madeUpKey() })).status).toBe(429);
  });

  it("while over budget, only keys this server has accepted before are looked up", async () => {
    // A key never used yet is not told from a made-up one without the lookup the budget withholds:
    // it waits like one (documented in docs/api.md, "Authentication").
    const fresh = await api(t, "POST", "/v1/keys", { key, body: { name: "fresh" } });
    expect(fresh.status).toBe(201);
    expect((await api(t, "GET", "/v1/account", { key: fresh.body.key })).status).toBe(429);
    // A key accepted before but revoked since is looked up, refused, and answered 429, not let in.
    expect((await api(t, "DELETE", `/v1/keys/${spare.id}`, { key })).status).toBe(200);
    const revoked = await api(t, "GET", "/v1/account", { key: spare.key });
    expect(revoked.status).toBe(429);
    expect(revoked.body.error.code).toBe("rate_limited");
  });

  // 127.0.0.0/8 is all loopback on Linux, so a client can come from 127.0.0.2.
  it.skipIf(process.platform !== "linux")("another address has its own budget", async () => {
    const res = await fromAddress("127.0.0.2", "/v1/templates", { authorization: `Bearer ${madeUpKey()}` });
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toBe("Bearer");
  });
});

function fromAddress(
  localAddress: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  const url = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, localAddress, headers },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
