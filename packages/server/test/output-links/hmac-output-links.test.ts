import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signOutputPath } from "../../src/http/output-links.ts";
import { api, newAccount, publishTemplate, startTestServer, type TestServer } from "../api/support.ts";

// The API's own HMAC output links, in their exact form. Outside the API suite's globs, so it runs on
// the embedded backend only (with S3, output_url is a presigned URL: presigned-output-links.test.ts).
let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ key } = await newAccount(t, 100));
  await publishTemplate(t, key);
});
afterAll(() => t?.close());

async function renderedOutputUrl(): Promise<URL> {
  const res = await api(t, "POST", "/v1/renders", {
    key,
    body: { template: "test-card", modifications: [], wait: true },
  });
  expect(res.status).toBe(200);
  return new URL(res.body.output_url);
}

async function expectForbidden(url: URL): Promise<void> {
  const res = await fetch(url);
  expect(res.status, url.href).toBe(403);
  expect(await res.json()).toMatchObject({
    error: { code: "forbidden", message: "This link is invalid or has expired." },
  });
}

describe("HMAC output_url (embedded default)", () => {
  it("is /o/<asset>.<ext> on the API, expiring one hour from now", async () => {
    const url = await renderedOutputUrl();
    expect(url.origin).toBe(new URL(t.url).origin);
    expect(url.pathname).toMatch(/^\/o\/ast_[A-Za-z0-9]+\.png$/);
    expect([...url.searchParams.keys()]).toEqual(["expires", "sig"]);
    expect(url.searchParams.get("sig")).toMatch(/^[0-9a-f]{64}$/);
    const expiresInS = Number(url.searchParams.get("expires")) - Date.now() / 1000;
    expect(expiresInS).toBeGreaterThan(3590);
    expect(expiresInS).toBeLessThanOrEqual(3600);
    const res = await fetch(url);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(3590);
    expect(maxAge).toBeLessThanOrEqual(3600);
  });

  it("lets caches keep the bytes only for what is left of the link's hour", async () => {
    const url = await renderedOutputUrl();
    const assetId = /\/o\/(ast_[A-Za-z0-9]+)\.png$/.exec(url.pathname)?.[1] ?? "";
    const halfGone = new URL(
      signOutputPath(t.data.signingSecret, assetId, "png", Date.now() - 1800_000),
      t.url,
    );
    const res = await fetch(halfGone);
    expect(res.status).toBe(200);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(1790);
    expect(maxAge).toBeLessThanOrEqual(1800);
  });

  it("tampered id, expiry or signature is 403 with the forbidden JSON error", async () => {
    const url = await renderedOutputUrl();
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const zeroSig = new URL(url);
    zeroSig.searchParams.set("sig", "0".repeat(64));
    const noSig = new URL(url);
    noSig.searchParams.delete("sig");
    const otherId = new URL(url.href.replace(/\/o\/ast_/, "/o/ast_x"));
    for (const bad of [later, zeroSig, noSig, otherId]) await expectForbidden(bad);
  });

  it("a link signed with the server's key two hours ago has expired: 403", async () => {
    const url = await renderedOutputUrl();
    const assetId = /\/o\/(ast_[A-Za-z0-9]+)\.png$/.exec(url.pathname)?.[1] ?? "";
    const fresh = new URL(signOutputPath(t.data.signingSecret, assetId, "png", Date.now()), t.url);
    expect((await fetch(fresh)).status).toBe(200);
    const stale = new URL(
      signOutputPath(t.data.signingSecret, assetId, "png", Date.now() - 2 * 3600_000),
      t.url,
    );
    await expectForbidden(stale);
  });
});
