import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeFetch } from "../../src/adapters/fetch/safe-fetch.ts";
import { type RunningServer, startHttpServer } from "./loopback-servers.ts";

// "Public" hop: an allow-listed loopback server. "Private" target: another
// loopback server on a port that is NOT allow-listed; reaching it would be
// an SSRF through a redirect.
let hop: RunningServer;
let privateTarget: RunningServer;
let allowlist: string[];

beforeAll(async () => {
  privateTarget = await startHttpServer("127.0.0.1", (_req, res) => res.end("secret"));
  hop = await startHttpServer("127.0.0.1", (req, res, body) => {
    const url = new URL(req.url ?? "/", "http://x");
    const to = url.searchParams.get("to");
    const n = Number(url.searchParams.get("n") ?? "0");
    const status = Number(url.searchParams.get("status") ?? "302");
    if (to !== null) {
      res.writeHead(status, { Location: to.replaceAll("PRIVATE", String(privateTarget.port)) });
      res.end("redirect body is ignored");
    } else if (n > 0) {
      res.writeHead(status, { Location: `/chain?n=${n - 1}&status=${status}` });
      res.end();
    } else {
      res.end(`${req.method} ${body.length} ${req.headers.authorization ?? "-"}`);
    }
  });
  allowlist = [`127.0.0.1:${hop.port}`];
});
afterAll(async () => {
  await hop.close();
  await privateTarget.close();
});

const base = () => `http://127.0.0.1:${hop.port}`;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("redirects", () => {
  it("re-checks every hop: a redirect to a non-allowed loopback port is blocked", async () => {
    const safe = createSafeFetch({ allowlist });
    const to = encodeURIComponent("http://127.0.0.1:PRIVATE/");
    await expect(safe.fetch(`${base()}/r?to=${to}`)).rejects.toMatchObject({ code: "blocked" });
    expect(privateTarget.hits).toEqual([]);
  });

  it("blocks a redirect to a private address spelled as a decimal integer", async () => {
    const safe = createSafeFetch({ allowlist });
    const to = encodeURIComponent("http://2130706433:PRIVATE/");
    await expect(safe.fetch(`${base()}/r?to=${to}`)).rejects.toMatchObject({ code: "blocked" });
    expect(privateTarget.hits).toEqual([]);
  });

  it("blocks a redirect to file:", async () => {
    const safe = createSafeFetch({ allowlist });
    await expect(
      safe.fetch(`${base()}/r?to=${encodeURIComponent("file:///etc/passwd")}`),
    ).rejects.toMatchObject({
      code: "blocked",
    });
  });

  it("follows exactly 3 redirects and refuses a 4th", async () => {
    const safe = createSafeFetch({ allowlist });
    const ok = await safe.fetch(`${base()}/chain?n=3`);
    expect(text(ok.body)).toBe("GET 0 -");
    expect(ok.url).toBe(`${base()}/chain?n=0&status=302`);
    await expect(safe.fetch(`${base()}/chain?n=4`)).rejects.toMatchObject({ code: "fetch_failed" });
    await expect(safe.fetch(`${base()}/chain?n=1`, { maxRedirects: 0 })).rejects.toMatchObject({
      code: "fetch_failed",
    });
  });

  it("returns the 3xx as is when followRedirects is false (webhooks)", async () => {
    const safe = createSafeFetch({ allowlist });
    const to = encodeURIComponent("http://127.0.0.1:PRIVATE/");
    const response = await safe.fetch(`${base()}/r?to=${to}`, {
      method: "POST",
      body: "{}",
      followRedirects: false,
    });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`http://127.0.0.1:${privateTarget.port}/`);
    expect(text(response.body)).toBe("redirect body is ignored");
    expect(privateTarget.hits).toEqual([]);
  });

  it("turns POST into a body-less GET on 303 and keeps it on 307", async () => {
    const safe = createSafeFetch({ allowlist });
    const after303 = await safe.fetch(`${base()}/chain?n=1&status=303`, { method: "POST", body: "abc" });
    expect(text(after303.body)).toBe("GET 0 -");
    const after307 = await safe.fetch(`${base()}/chain?n=1&status=307`, { method: "POST", body: "abc" });
    expect(text(after307.body)).toBe("POST 3 -");
  });

  it("keeps Authorization on a same-origin hop only", async () => {
    const safe = createSafeFetch({
      allowlist: [...allowlist, `localhost:${hop.port}`],
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    const sameOrigin = await safe.fetch(`${base()}/chain?n=1`, { headers: { Authorization: "Bearer t" } });
    expect(text(sameOrigin.body)).toBe("GET 0 Bearer t");
    const cross = encodeURIComponent(`http://localhost:${hop.port}/chain?n=0`);
    const crossOrigin = await safe.fetch(`${base()}/r?to=${cross}`, {
      headers: { Authorization: "Bearer t" },
    });
    expect(text(crossOrigin.body)).toBe("GET 0 -");
  });
});
