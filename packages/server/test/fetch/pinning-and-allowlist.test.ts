import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolvedAddress } from "../../src/adapters/fetch/resolve-target.ts";
import { createSafeFetch } from "../../src/adapters/fetch/safe-fetch.ts";
import { fakeDns, type RunningServer, startHttpServer, v4 } from "./loopback-servers.ts";

// Two receivers on the SAME port at different loopback addresses: A on
// 127.0.0.1 (allow-listed) and B on 127.0.0.2 (not). Which one answers shows
// which address the socket really connected to.
let a: RunningServer;
let b: RunningServer;
beforeAll(async () => {
  a = await startHttpServer("127.0.0.1", (req, res) => res.end(`A ${req.headers.host}`));
  b = await startHttpServer("127.0.0.2", (_req, res) => res.end("B"), a.port);
});
afterAll(async () => {
  await a.close();
  await b.close();
});

describe("DNS rebinding", () => {
  it("connects only to the address that was checked, resolving once", async () => {
    // First answer: the allow-listed 127.0.0.1. Every later answer: 127.0.0.2,
    // which a fetcher that re-resolves at connect time would reach instead.
    let calls = 0;
    const lookup = async (): Promise<ResolvedAddress[]> => {
      calls += 1;
      return [v4(calls === 1 ? "127.0.0.1" : "127.0.0.2")];
    };
    const safe = createSafeFetch({ allowlist: [`127.0.0.1:${a.port}`], lookup });
    const response = await safe.fetch(`http://rebind.example.com:${a.port}/pic.png`);
    expect(new TextDecoder().decode(response.body)).toBe(`A rebind.example.com:${a.port}`);
    expect(calls).toBe(1);
    expect(a.hits).toContain("GET /pic.png");
    expect(b.hits).toEqual([]);
  });

  it("blocks when the first answer is not allowed, whatever a later lookup would say", async () => {
    let calls = 0;
    const lookup = async (): Promise<ResolvedAddress[]> => {
      calls += 1;
      return [v4(calls === 1 ? "127.0.0.2" : "127.0.0.1")];
    };
    const safe = createSafeFetch({ allowlist: [`127.0.0.1:${a.port}`], lookup });
    await expect(safe.fetch(`http://rebind2.example.com:${a.port}/`)).rejects.toMatchObject({
      code: "blocked",
    });
    expect(calls).toBe(1);
    expect(b.hits).toEqual([]);
  });
});

describe("several checked addresses", () => {
  it("falls back to the next checked address when the first refuses the connection", async () => {
    // 127.0.0.3 has nothing listening on the port; 127.0.0.1 has A.
    const dns = fakeDns({ "multi.example.com": [v4("127.0.0.3"), v4("127.0.0.1")] });
    const safe = createSafeFetch({
      allowlist: [`127.0.0.3:${a.port}`, `127.0.0.1:${a.port}`],
      lookup: dns.lookup,
    });
    const response = await safe.fetch(`http://multi.example.com:${a.port}/fallback`);
    expect(new TextDecoder().decode(response.body)).toBe(`A multi.example.com:${a.port}`);
    expect(dns.asked).toEqual(["multi.example.com"]);
  });
});

describe("allow-list", () => {
  it("lets exactly its host:port entry through and nothing next to it", async () => {
    const dns = fakeDns({ localhost: [v4("127.0.0.1")], "other.example.com": [v4("127.0.0.2")] });
    const safe = createSafeFetch({ allowlist: [`127.0.0.1:${a.port}`], lookup: dns.lookup });
    expect((await safe.fetch(`http://127.0.0.1:${a.port}/ok`)).status).toBe(200);
    expect(await safe.check(`http://127.1:${a.port}/`)).toEqual({ ok: true }); // same address, other spelling
    expect(await safe.check(`http://localhost:${a.port}/`)).toEqual({ ok: true }); // resolves to the entry
    for (const url of [
      `http://127.0.0.2:${a.port}/`,
      `http://127.0.0.1:${a.port + 1}/`,
      `http://[::1]:${a.port}/`,
      `http://other.example.com:${a.port}/`,
      `http://127.0.0.1/`,
    ]) {
      expect(await safe.check(url), url).toMatchObject({ ok: false });
    }
    await expect(safe.fetch(`http://127.0.0.2:${a.port}/`)).rejects.toMatchObject({ code: "blocked" });
    expect(b.hits).toEqual([]);
  });

  it("accepts a host-name entry and connects to what that name resolved to", async () => {
    const dns = fakeDns({ localhost: [v4("127.0.0.1")] });
    const safe = createSafeFetch({ allowlist: [`localhost:${a.port}`], lookup: dns.lookup });
    const response = await safe.fetch(`http://localhost:${a.port}/named`);
    expect(new TextDecoder().decode(response.body)).toBe(`A localhost:${a.port}`);
    await expect(safe.check(`http://127.0.0.1:${a.port}/`)).resolves.toMatchObject({ ok: false });
  });

  it("refuses malformed entries at start-up", () => {
    for (const entry of ["127.0.0.1", "http://127.0.0.1:80/", "*:4555", "a.com/x:80", "127.0.0.1:99999"]) {
      expect(() => createSafeFetch({ allowlist: [entry] }), entry).toThrow(/PICTOR_OUTBOUND_ALLOWLIST/);
    }
  });
});

describe("requests", () => {
  it("sends method, headers and body, and returns status, lower-cased headers and bytes", async () => {
    const echo = await startHttpServer("127.0.0.1", (req, res, body) => {
      res.writeHead(202, { "X-Seen-Method": req.method ?? "", "X-Seen-Sig": String(req.headers["x-sig"]) });
      res.end(body);
    });
    try {
      const safe = createSafeFetch({ allowlist: [`127.0.0.1:${echo.port}`] });
      const payload = new TextEncoder().encode('{"event":"render.completed"}');
      const response = await safe.fetch(`http://127.0.0.1:${echo.port}/hook?x=1#frag`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Sig": "sha256=abc" },
        body: payload,
      });
      expect(response.status).toBe(202);
      expect(response.headers["x-seen-method"]).toBe("POST");
      expect(response.headers["x-seen-sig"]).toBe("sha256=abc");
      expect(response.body).toEqual(payload);
      expect(response.url).toBe(`http://127.0.0.1:${echo.port}/hook?x=1#frag`);
      expect(echo.hits).toEqual(["POST /hook?x=1"]);
    } finally {
      await echo.close();
    }
  });
});
