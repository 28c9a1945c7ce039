import { createHash, randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { signImageUrl } from "@pictor/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAssetToken, newId } from "../../src/domain/ids.ts";
import {
  api,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  testTemplate,
} from "../api/support.ts";
import { pngBytes } from "./support.ts";

// File routes (/a/, /o/, /i/) stream from the blob store with byte ranges, and are rate limited per
// client address and per credential: on the embedded default and (project server-pg) PostgreSQL + S3.

const MiB = 1024 * 1024;
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** An asset whose stored bytes are `bytes`, put straight into the blob store (no upload limit applies). */
async function storeAsset(t: TestServer, accountId: string, bytes: Uint8Array) {
  const id = newId("ast");
  const blobKey = `uploads/${accountId}/${id}.png`;
  await t.data.blobs.put(blobKey, bytes);
  const token = newAssetToken();
  await t.data.assets.insert({
    id,
    accountId,
    folder: "uploads/",
    name: "big.png",
    contentType: "image/png",
    byteSize: bytes.byteLength,
    width: null,
    height: null,
    blobKey,
    token,
    etag: `"${sha(bytes).slice(0, 32)}"`,
    metadata: {},
    tags: [],
    renderId: null,
    createdAt: new Date().toISOString(),
  });
  return { id, token, url: `${t.url}/a/${token}.png`, etag: `"${sha(bytes).slice(0, 32)}"` };
}

/**
 * A client that sends a GET and reads only the first chunk of the answer (its status line and
 * headers), then never reads again: the server can only send what the socket buffers take.
 */
function stalledClient(base: string, path: string): Promise<{ socket: Socket; head: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    });
    socket.once("data", (chunk) => {
      socket.pause();
      resolve({ socket, head: chunk.toString("latin1", 0, Math.min(chunk.length, 512)) });
    });
    socket.once("error", reject);
  });
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("file routes stream from the blob store", () => {
  let t: TestServer;
  let owner: { accountId: string; key: string };
  const big = new Uint8Array(randomBytes(50 * MiB));
  let asset: Awaited<ReturnType<typeof storeAsset>>;

  beforeAll(async () => {
    t = await startTestServer();
    owner = await newAccount(t);
    asset = await storeAsset(t, owner.accountId, big);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("16 clients that never read a 50 MB asset keep the server's memory growth far below 16 copies", async () => {
    const path = new URL(asset.url).pathname;
    // One whole download first: every lazily loaded module and buffer pool of the path is in place.
    const warm = await fetch(asset.url);
    expect(sha(new Uint8Array(await warm.arrayBuffer()))).toBe(sha(big));
    await settle(500);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const clients = await Promise.all(Array.from({ length: 16 }, () => stalledClient(t.url, path)));
    try {
      for (const c of clients) expect(c.head).toMatch(/^HTTP\/1\.1 200 /);
      // The server writes what the sockets take and waits; give it time to read ahead if it would.
      await settle(1500);
      clearInterval(sampler);
      const growth = peak - before;
      console.log(
        `16 stalled downloads of a ${big.byteLength / MiB} MiB asset: RSS ${Math.round(before / MiB)} MiB, peak ${Math.round(peak / MiB)} MiB (+${Math.round(growth / MiB)} MiB)`,
      );
      // Whole-file buffers would be 16 x 50 MiB = 800 MiB.
      expect(growth).toBeLessThan(4 * big.byteLength);
    } finally {
      clearInterval(sampler);
      for (const c of clients) c.socket.destroy();
    }
    // Still served whole afterwards.
    const again = await fetch(asset.url);
    expect(again.status).toBe(200);
    expect(sha(new Uint8Array(await again.arrayBuffer()))).toBe(sha(big));
  });

  it("answers one byte range with 206 and the right bytes; outside the file with 416", async () => {
    const whole = await fetch(asset.url, { method: "HEAD" });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-length")).toBe(String(big.byteLength));

    const middle = await fetch(asset.url, { headers: { range: "bytes=1000000-1000099" } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe(`bytes 1000000-1000099/${big.byteLength}`);
    expect(middle.headers.get("content-length")).toBe("100");
    expect(middle.headers.get("etag")).toBe(asset.etag);
    expect(middle.headers.get("content-security-policy")).toBe("sandbox");
    expect(
      Buffer.from(await middle.arrayBuffer()).equals(Buffer.from(big.subarray(1_000_000, 1_000_100))),
    ).toBe(true);

    const tail = await fetch(asset.url, { headers: { range: "bytes=-10" } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("content-range")).toBe(
      `bytes ${big.byteLength - 10}-${big.byteLength - 1}/${big.byteLength}`,
    );
    expect(Buffer.from(await tail.arrayBuffer()).equals(Buffer.from(big.subarray(big.byteLength - 10)))).toBe(
      true,
    );

    const open = await fetch(asset.url, { headers: { range: `bytes=${big.byteLength - 5}-` } });
    expect(open.status).toBe(206);
    expect((await open.arrayBuffer()).byteLength).toBe(5);

    const outside = await fetch(asset.url, { headers: { range: `bytes=${big.byteLength}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get("content-range")).toBe(`bytes */${big.byteLength}`);
    expect(((await outside.json()) as { error: { code: string } }).error.code).toBe("range_not_satisfiable");

    // An If-Range naming another version: the whole file. A matching ETag: still 304.
    const stale = await fetch(asset.url, { headers: { range: "bytes=0-9", "if-range": '"old"' } });
    expect(stale.status).toBe(200);
    await stale.body?.cancel();
    expect((await fetch(asset.url, { headers: { "if-none-match": asset.etag } })).status).toBe(304);
  });

  it("an on-demand image URL answers a byte range of its cached output", async () => {
    await publishTemplate(t, owner.key, testTemplate("card"));
    const created = await api(t, "POST", "/v1/url-signing-keys", { key: owner.key, body: { name: "site" } });
    expect(created.status).toBe(201);
    const url = await signImageUrl({
      baseUrl: t.url,
      keyId: created.body.id,
      secret: created.body.secret,
      template: "card",
      values: { title: "Range" },
    });
    const full = await fetch(url);
    expect(full.status).toBe(200);
    expect(full.headers.get("accept-ranges")).toBe("bytes");
    const bytes = new Uint8Array(await full.arrayBuffer());
    const part = await fetch(url, { headers: { range: "bytes=8-23" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 8-23/${bytes.byteLength}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(bytes.subarray(8, 24)))).toBe(true);
  });
});

describe("download rate limits", () => {
  let t: TestServer;
  let a: { accountId: string; key: string };
  let b: { accountId: string; key: string };

  beforeAll(async () => {
    t = await startTestServer({
      env: {
        // Per credential (here the account owning the files): 3 at once, then one a minute.
        PICTOR_DOWNLOADS_BURST: "3",
        PICTOR_DOWNLOADS_PER_SECOND: "0.0167",
        // Per client address: 5 at once, then one a minute; the address is X-Forwarded-For's when
        // the peer is loopback (the trusted proxy).
        PICTOR_DOWNLOADS_IP_BURST: "5",
        PICTOR_DOWNLOADS_IP_PER_SECOND: "0.0167",
        PICTOR_TRUST_PROXY: "loopback",
      },
    });
    a = await newAccount(t);
    b = await newAccount(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const from = (ip: string) => ({ "x-forwarded-for": ip });

  it("per account that owns the files: the fourth download is 429 with Retry-After; other accounts' files are not held up", async () => {
    const png = await storeAsset(t, a.accountId, await pngBytes(10, "#112233"));
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(png.url, { headers: from(`198.51.100.${i + 1}`) });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await fetch(png.url, { headers: from("198.51.100.9") });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("ratelimit-policy")).toMatch(/^"downloads";q=3;w=\d+$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // The other account's files have their own budget.
    const other = await storeAsset(t, b.accountId, await pngBytes(10, "#445566"));
    expect((await fetch(other.url, { headers: from("198.51.100.10") })).status).toBe(200);
  });

  it("per client address, behind the trusted proxy: X-Forwarded-For's address; another address is not held up", async () => {
    const files = await Promise.all(
      ["#010101", "#020202", "#030303", "#040404", "#050505", "#060606"].map(async (colour) =>
        storeAsset(t, (await newAccount(t)).accountId, await pngBytes(10, colour)),
      ),
    );
    const ip = "203.0.113.7";
    const statuses: number[] = [];
    for (const file of files) {
      const res = await fetch(file.url, { headers: from(ip) });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await fetch(files[0]?.url ?? "", { headers: from(ip) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Even a file that does not exist: the address is limited before anything is looked up.
    expect((await fetch(`${t.url}/a/${"0".repeat(32)}.png`, { headers: from(ip) })).status).toBe(429);
    expect((await fetch(files[5]?.url ?? "", { headers: from("203.0.113.8") })).status).toBe(200);
  });

  it("on-demand image URLs are limited per URL-signing key once the signature holds", async () => {
    await publishTemplate(t, a.key, testTemplate("card"));
    const created = await api(t, "POST", "/v1/url-signing-keys", { key: a.key, body: { name: "site" } });
    expect(created.status).toBe(201);
    const keyId: string = created.body.id;
    const url = await signImageUrl({
      baseUrl: t.url,
      keyId,
      secret: created.body.secret,
      template: "card",
      values: { title: "limited" },
    });
    // A made-up signature naming the key: 403, and it does not use the key's budget.
    for (let i = 0; i < 5; i++) {
      const forged = `${t.url}/i/${keyId}/card.png?title=x&sig=${"0".repeat(64)}`;
      expect((await fetch(forged, { headers: from(`192.0.2.${i + 1}`) })).status).toBe(403);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(url, { headers: from(`192.0.2.${i + 20}`) });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
