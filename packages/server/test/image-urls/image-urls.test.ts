import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type SignImageUrlOptions, signImageUrl } from "@pictor/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  balanceOf,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  testTemplate,
} from "../api/support.ts";

// On-demand image URLs, over real HTTP on loopback, on the embedded default and (project
// server-pg) on PostgreSQL + S3.

interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: error bodies are inspected field by field
  json: any;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const res = await fetch(url, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown = null;
  if ((res.headers.get("content-type") ?? "").includes("json") && bytes.byteLength > 0)
    json = JSON.parse(bytes.toString("utf8"));
  return { status: res.status, headers: res.headers, bytes, json };
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

interface Signer {
  keyId: string;
  secret: string;
}

async function newSigningKey(t: TestServer, key: string): Promise<Signer> {
  const res = await api(t, "POST", "/v1/url-signing-keys", { key, body: { name: "site" } });
  expect(res.status).toBe(201);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return { keyId: res.body.id, secret: res.body.secret };
}

async function charges(t: TestServer, key: string): Promise<number> {
  const res = await api(t, "GET", "/v1/account/ledger?limit=200", { key });
  return res.body.data.filter((e: { kind: string }) => e.kind === "charge").length;
}

/** Replaces the query string's `name` value in a signed URL (keeping the signature). */
function withParam(url: string, name: string, value: string | null): string {
  const u = new URL(url);
  const parts = u.search
    .slice(1)
    .split("&")
    .filter((p) => p !== "");
  const i = parts.findIndex((p) => p.split("=")[0] === name);
  if (value === null) parts.splice(i, 1);
  else if (i === -1) parts.unshift(`${name}=${value}`);
  else parts[i] = `${name}=${value}`;
  return `${u.origin}${u.pathname}?${parts.join("&")}`;
}

describe("signed image URLs and the render cache", () => {
  let t: TestServer;
  let key: string;
  let signer: Signer;
  let templateId: string;
  const sign = (o: Partial<SignImageUrlOptions> = {}) =>
    signImageUrl({ baseUrl: t.url, ...signer, template: "card", ...o });

  beforeAll(async () => {
    t = await startTestServer();
    ({ key } = await newAccount(t, 1000));
    templateId = (await publishTemplate(t, key, testTemplate("card"))).id;
    signer = await newSigningKey(t, key);
  });
  afterAll(() => t.close());

  it("first request renders and charges scale² once; repeats are cache hits, free, same bytes and ETag", async () => {
    const before = await balanceOf(t, key);
    const url = await sign({ values: { title: "First" }, scale: 2 });
    const first = await get(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(first.headers.get("content-security-policy")).toBe("sandbox");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("content-disposition")).toBeNull();
    expect(first.headers.get("cache-status")).toContain("fwd=miss");
    expect(first.headers.get("cache-control")).toBe("public, max-age=3600");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect(await balanceOf(t, key)).toBe(before - 4);

    for (let i = 0; i < 3; i++) {
      const again = await get(url);
      expect(again.status).toBe(200);
      expect(again.headers.get("cache-status")).toBe("pictor; hit");
      expect(again.headers.get("etag")).toBe(etag);
      expect(sha(again.bytes)).toBe(sha(first.bytes));
    }
    expect(await balanceOf(t, key)).toBe(before - 4);

    // The output is an asset of the library, in renders/<template>/.
    const assets = await api(t, "GET", `/v1/assets?folder=${encodeURIComponent("renders/card/")}`, { key });
    expect(assets.body.data.length).toBeGreaterThanOrEqual(1);
  });

  it("the OpenAPI document and /docs describe the route, its signing scheme and the key endpoints", async () => {
    const doc = await api(t, "GET", "/v1/openapi.json");
    const route = doc.body.paths["/i/{key}/{file}"]?.get;
    expect(route.description).toContain("HMAC-SHA256");
    expect(route.security).toEqual([]);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(["/v1/url-signing-keys", "/v1/url-signing-keys/{id}/rotate"]),
    );
    const html = await fetch(`${t.url}/docs`).then((r) => r.text());
    expect(html).toContain("/i/{key}/{file}");
  });

  it("If-None-Match with the ETag is 304 with no body, and no charge", async () => {
    const url = await sign({ values: { title: "Etag" } });
    const first = await get(url);
    const balance = await balanceOf(t, key);
    const etag = first.headers.get("etag") ?? "";
    const cached = await get(url, { "if-none-match": etag });
    expect(cached.status).toBe(304);
    expect(cached.bytes.byteLength).toBe(0);
    // A CDN refreshing the cached image's headers from a 304 must not take a JSON type from it.
    expect(cached.headers.get("content-type")).toBeNull();
    expect(cached.headers.get("content-length")).toBeNull();
    expect(cached.headers.get("etag")).toBe(etag);
    expect((await get(url, { "if-none-match": `W/${etag}, "other"` })).status).toBe(304);
    expect((await get(url, { "if-none-match": '"other"' })).status).toBe(200);
    expect(await balanceOf(t, key)).toBe(balance);
  });

  it("every parameter, the path and the signature are covered: any change is 403, nothing rendered or charged", async () => {
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const url = await sign({
      values: { title: "Tamper", bg: "#112233" },
      frame: "main",
      scale: 1,
      version: 1,
      expires,
      fallback: "image",
    });
    expect((await get(url)).status).toBe(200);
    const balance = await balanceOf(t, key);
    const ledger = await charges(t, key);
    const tampered = [
      withParam(url, "title", "Tampered"),
      withParam(url, "bg", "%23112234"),
      withParam(url, "frame", "wide"),
      withParam(url, "scale", "2"),
      withParam(url, "v", "2"),
      withParam(url, "expires", String(expires + 1)),
      withParam(url, "fallback", "json"),
      withParam(url, "title", null),
      withParam(url, "bg", null),
      withParam(url, "frame", null),
      withParam(url, "scale", null),
      withParam(url, "v", null),
      withParam(url, "expires", null),
      withParam(url, "fallback", null),
      withParam(url, "photo", "https%3A%2F%2Fexample.com%2Fa.png"),
      withParam(url, "sig", null),
      withParam(url, "sig", "0".repeat(64)),
      withParam(url, "sig", new URL(url).searchParams.get("sig")?.toUpperCase() ?? ""),
      url.replace("/card.png", "/card.jpg"),
      url.replace("/card.png", `/${templateId}.png`),
      url.replace(`/i/${signer.keyId}/`, "/i/usk_unknown/"),
    ];
    for (const bad of tampered) {
      const res = await get(bad);
      expect(res.status, bad).toBe(403);
      expect(res.json?.error?.code, bad).toBe("forbidden");
      expect(res.headers.get("content-type")).toContain("application/json");
    }
    expect(await balanceOf(t, key)).toBe(balance);
    expect(await charges(t, key)).toBe(ledger);
  });

  it("parameter order and encoding do not matter (canonical form): the same cache entry", async () => {
    const url = await sign({ values: { title: "Hello world & more", bg: "#00aa00" }, scale: 1 });
    const first = await get(url);
    expect(first.status).toBe(200);
    const u = new URL(url);
    const reordered = u.search.slice(1).split("&").reverse().join("&").replace(/%20/g, "+");
    const res = await get(`${u.origin}${u.pathname}?${reordered}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-status")).toBe("pictor; hit");
    expect(res.headers.get("etag")).toBe(first.headers.get("etag"));
    // Lowercase hex escapes decode to the same characters, so they verify too.
    const lower = `${u.origin}${u.pathname}${u.search.replace(/%2[0-9A-F]/g, (m) => m.toLowerCase())}`;
    expect((await get(lower)).status).toBe(200);
  });

  it("an expired URL is 403 with reason expired; nothing is charged", async () => {
    const balance = await balanceOf(t, key);
    const url = await sign({ values: { title: "Old" }, expires: Math.floor(Date.now() / 1000) - 1 });
    const res = await get(url);
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: "forbidden", reason: "expired" });
    expect(await balanceOf(t, key)).toBe(balance);
    const fresh = await get(
      await sign({ values: { title: "Old" }, expires: Math.floor(Date.now() / 1000) + 60 }),
    );
    expect(fresh.status).toBe(200);
    const maxAge = Number(/max-age=(\d+)/.exec(fresh.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeLessThanOrEqual(60);
  });

  it("rotation keeps the previous secret valid for its grace period; a zero grace ends it at once", async () => {
    const own = await newSigningKey(t, key);
    const oldUrl = await signImageUrl({
      baseUrl: t.url,
      ...own,
      template: "card",
      values: { title: "Rotate" },
    });
    expect((await get(oldUrl)).status).toBe(200);

    const rotated = await api(t, "POST", `/v1/url-signing-keys/${own.keyId}/rotate`, { key, body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(own.secret);
    expect(rotated.body.previous_expires_at).toEqual(expect.any(String));
    const newUrl = await signImageUrl({
      baseUrl: t.url,
      keyId: own.keyId,
      secret: rotated.body.secret,
      template: "card",
      values: { title: "Rotate" },
    });
    expect((await get(oldUrl)).status).toBe(200);
    expect((await get(newUrl)).status).toBe(200);

    const list = await api(t, "GET", "/v1/url-signing-keys", { key });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === own.keyId);
    expect(listed).toMatchObject({ id: own.keyId, rotated_at: expect.any(String) });
    expect(JSON.stringify(list.body)).not.toContain(rotated.body.secret);

    const again = await api(t, "POST", `/v1/url-signing-keys/${own.keyId}/rotate`, {
      key,
      body: { grace_period_seconds: 0 },
    });
    expect(again.status).toBe(200);
    expect((await get(newUrl)).status).toBe(403);
    expect((await get(oldUrl)).status).toBe(403);

    // Another account cannot rotate or delete the key.
    const other = await newAccount(t, 10);
    const foreign = await api(t, "POST", `/v1/url-signing-keys/${own.keyId}/rotate`, { key: other.key });
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(404);
    expect((await api(t, "DELETE", `/v1/url-signing-keys/${own.keyId}`, { key: other.key })).status).toBe(
      404,
    );
    expect((await api(t, "DELETE", `/v1/url-signing-keys/${own.keyId}`, { key })).status).toBe(200);
  });

  it("100 concurrent identical requests: one render, one charge, identical bytes", async () => {
    const balance = await balanceOf(t, key);
    const ledger = await charges(t, key);
    const url = await sign({ values: { title: "Stampede" } });
    const results = await Promise.all(Array.from({ length: 100 }, () => get(url)));
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(new Set(results.map((r) => sha(r.bytes))).size).toBe(1);
    expect(
      results.filter(
        (r) =>
          r.headers.get("cache-status")?.includes("fwd=miss; stored") &&
          !r.headers.get("cache-status")?.includes("collapsed"),
      ).length,
    ).toBe(1);
    expect(await balanceOf(t, key)).toBe(balance - 1);
    expect(await charges(t, key)).toBe(ledger + 1);
  });

  it("republishing renders the new version for unpinned URLs; URLs pinned with v keep the old bytes", async () => {
    const doc = testTemplate("card-v");
    const created = await publishTemplate(t, key, doc);
    const unpinned = await sign({ template: "card-v", values: { title: "Versions" } });
    const pinned = await sign({ template: "card-v", values: { title: "Versions" }, version: 1 });
    const v1 = await get(unpinned);
    expect(v1.status).toBe(200);
    const balance = await balanceOf(t, key);
    const p1 = await get(pinned);
    // Same inputs, same version: the pinned URL is served from the same cache entry.
    expect(p1.headers.get("cache-status")).toBe("pictor; hit");
    expect(p1.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(sha(p1.bytes)).toBe(sha(v1.bytes));

    const changed = {
      ...doc,
      slots: (doc.slots as { name: string }[]).map((s) =>
        s.name === "bg" ? { ...s, default: "#aa2200" } : s,
      ),
    };
    expect(
      (await api(t, "PUT", `/v1/templates/${created.id}`, { key, body: { document: changed } })).status,
    ).toBe(200);
    expect((await api(t, "POST", `/v1/templates/${created.id}/publish`, { key })).status).toBe(200);

    const v2 = await get(unpinned);
    expect(v2.status).toBe(200);
    expect(v2.headers.get("cache-status")).toContain("fwd=miss");
    expect(sha(v2.bytes)).not.toBe(sha(v1.bytes));
    expect(await balanceOf(t, key)).toBe(balance - 1);
    const p2 = await get(pinned);
    expect(sha(p2.bytes)).toBe(sha(v1.bytes));
    expect(await balanceOf(t, key)).toBe(balance - 1);
    expect((await get(await sign({ template: "card-v", version: 3 }))).status).toBe(404);
  });

  it("bad requests: the right status, JSON error, nothing charged; fallback=image answers a PNG", async () => {
    const balance = await balanceOf(t, key);
    const draft = await api(t, "POST", "/v1/templates", {
      key,
      body: { document: testTemplate("draft-card") },
    });
    expect(draft.status).toBe(201);
    const cases: [Partial<SignImageUrlOptions>, number, string][] = [
      [{ template: "nope" }, 404, "not_found"],
      [{ template: "draft-card" }, 422, "template_not_published"],
      [{ values: { headline: "x" } }, 422, "unknown_slot"],
      [{ values: { bg: "red" } }, 400, "invalid_request"],
      [{ values: { photo: "ftp://example.com/x.png" } }, 400, "invalid_request"],
      [{ values: { logo: "https://example.com/logo.png" } }, 422, "image_out_of_folder"],
      [{ scale: 5 }, 400, "invalid_scale"],
      [{ frame: "nope" }, 400, "invalid_request"],
    ];
    for (const [options, status, code] of cases) {
      const res = await get(await sign(options));
      expect(res.status, code).toBe(status);
      expect(res.json.error.code).toBe(code);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const image = await get(await sign({ ...options, fallback: "image" }));
      expect(image.status).toBe(status);
      expect(image.headers.get("content-type")).toBe("image/png");
      expect(image.headers.get("pictor-error")).toBe(code);
      expect(image.bytes.subarray(1, 4).toString()).toBe("PNG");
    }
    expect(await balanceOf(t, key)).toBe(balance);
  });

  it("insufficient credits is 402 with required and balance; image URLs that fail to fetch are refunded", async () => {
    const poor = await newAccount(t, 3);
    const poorKey = await newSigningKey(t, poor.key);
    await api(t, "POST", "/v1/templates", {
      key: poor.key,
      body: { document: testTemplate("card"), publish: true },
    });
    const url = await signImageUrl({ baseUrl: t.url, ...poorKey, template: "card", scale: 2 });
    const res = await get(url);
    expect(res.status).toBe(402);
    expect(res.json.error).toMatchObject({ code: "insufficient_credits", required: 4, balance: 3 });

    const broken = await get(await sign({ values: { photo: t.images.url("/missing.png") } }));
    expect(broken.status).toBe(422);
    expect(broken.json.error.code).toBe("image_fetch_failed");
    const photo = await get(await sign({ values: { photo: t.images.url("/photo.png") } }));
    expect(photo.status).toBe(200);
    // A private address that is not allow-listed goes through the SSRF guard and fails the render.
    const ssrf = await get(await sign({ values: { photo: "http://169.254.169.254/latest/meta-data" } }));
    expect(ssrf.status).toBe(422);
    expect(await balanceOf(t, poor.key)).toBe(3);
  });
});

describe("cache size: least recently used outputs are evicted", () => {
  let t: TestServer;
  afterAll(() => t?.close());

  it("keeps the cache under PICTOR_IMAGE_CACHE_MAX_BYTES, evicting the least recently used", async () => {
    // The three outputs' sizes, measured on another server: the budget holds two of them, not three.
    const probe = await startTestServer();
    const p = await newAccount(probe, 100);
    await publishTemplate(probe, p.key, testTemplate("card"));
    const ps = await newSigningKey(probe, p.key);
    const sizeOf = async (bg: string) =>
      (await get(await signImageUrl({ baseUrl: probe.url, ...ps, template: "card", values: { bg } }))).bytes
        .byteLength;
    const [a, b, c] = [await sizeOf("#aa0000"), await sizeOf("#00aa00"), await sizeOf("#0000aa")];
    await probe.close();

    t = await startTestServer({ env: { PICTOR_IMAGE_CACHE_MAX_BYTES: String(a + c + Math.floor(b / 2)) } });
    const { key } = await newAccount(t, 100);
    await publishTemplate(t, key, testTemplate("card"));
    const s = await newSigningKey(t, key);
    const url = (bg: string) => signImageUrl({ baseUrl: t.url, ...s, template: "card", values: { bg } });
    const status = async (bg: string) => (await get(await url(bg))).headers.get("cache-status");
    expect(await status("#aa0000")).toContain("fwd=miss");
    expect(await status("#00aa00")).toContain("fwd=miss");
    expect(await status("#aa0000")).toBe("pictor; hit"); // now the most recently used
    expect(await status("#0000aa")).toContain("fwd=miss"); // over the budget: #00aa00 goes
    const balance = await balanceOf(t, key);
    expect(await status("#aa0000")).toBe("pictor; hit");
    expect(await status("#0000aa")).toBe("pictor; hit");
    expect(await balanceOf(t, key)).toBe(balance);
    expect(await status("#00aa00")).toContain("fwd=miss");
    expect(await balanceOf(t, key)).toBe(balance - 1);
    // Evicted outputs leave the library too: at most two stay in renders/card/.
    const assets = await api(t, "GET", `/v1/assets?folder=${encodeURIComponent("renders/card/")}`, { key });
    expect(assets.body.data.length).toBe(2);
  });
});

describe("cache misses are rate limited per account; hits are not", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: { PICTOR_IMAGE_MISSES_BURST: "2", PICTOR_IMAGE_MISSES_PER_SECOND: "0.01" },
    });
  });
  afterAll(() => t.close());

  it("the third distinct URL at once is 429 with Retry-After, not charged; cached URLs still answer", async () => {
    const { key } = await newAccount(t, 100);
    await publishTemplate(t, key, testTemplate("card"));
    const s = await newSigningKey(t, key);
    const url = (title: string) =>
      signImageUrl({ baseUrl: t.url, ...s, template: "card", values: { title } });
    expect((await get(await url("a"))).status).toBe(200);
    expect((await get(await url("b"))).status).toBe(200);
    const balance = await balanceOf(t, key);
    const limited = await get(await url("c"));
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(t, key)).toBe(balance);
    for (let i = 0; i < 50; i++) expect((await get(await url("a"))).status).toBe(200);
  });
});

describe("one account's image URLs never make another pay again", () => {
  let t: TestServer;
  afterAll(() => t?.close());

  it("each account has its own share of the cache: another account's renders evict none of its entries", async () => {
    t = await startTestServer({
      env: { PICTOR_IMAGE_CACHE_MAX_BYTES: String(2_000_000), PICTOR_IMAGE_MISSES_BURST: "100" },
    });
    const victim = await newAccount(t, 100);
    const attacker = await newAccount(t, 1000);
    for (const k of [victim.key, attacker.key]) await publishTemplate(t, k, testTemplate("card"));
    const vs = await newSigningKey(t, victim.key);
    const as = await newSigningKey(t, attacker.key);
    const victimUrl = await signImageUrl({
      baseUrl: t.url,
      ...vs,
      template: "card",
      values: { title: "Mine" },
    });
    expect((await get(victimUrl)).headers.get("cache-status")).toContain("fwd=miss");
    const balance = await balanceOf(t, victim.key);
    // The attacker's outputs at scale 4 (about 60 KB each) far exceed the victim's entry: with one budget
    // for the server they would push it out, since it is the least recently used.
    for (let i = 0; i < 40; i++) {
      const url = await signImageUrl({
        baseUrl: t.url,
        ...as,
        template: "card",
        scale: 4,
        values: { title: `Flood ${i}`, bg: `#${(i * 4099).toString(16).padStart(6, "0").slice(-6)}` },
      });
      expect((await get(url)).status).toBe(200);
    }
    expect((await get(victimUrl)).headers.get("cache-status")).toBe("pictor; hit");
    expect(await balanceOf(t, victim.key)).toBe(balance);
  });
});

describe("a render whose caller stopped waiting still enters the cache", () => {
  let t: TestServer;
  let gate: Server;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  afterAll(async () => {
    release();
    await t?.close();
    await new Promise<void>((r) => gate?.close(() => r()));
  });

  it("the caller gets 503 after PICTOR_IMAGE_MISS_WAIT_SECONDS; its retry is served that render, charged once", async () => {
    // An image origin that answers only once the test lets it: the render waits on its photo.
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    gate = createServer((_req, res) => {
      void released.then(() => res.writeHead(200, { "content-type": "image/png" }).end(png));
    });
    await new Promise<void>((r) => gate.listen(0, "127.0.0.1", r));
    const port = (gate.address() as AddressInfo).port;
    // Long enough for the retry to see the render through once the photo arrives (well under a second).
    t = await startTestServer({ allowPorts: [port], env: { PICTOR_IMAGE_MISS_WAIT_SECONDS: "3" } });
    const { key } = await newAccount(t, 100);
    await publishTemplate(t, key, testTemplate("card"));
    const s = await newSigningKey(t, key);
    const url = await signImageUrl({
      baseUrl: t.url,
      ...s,
      template: "card",
      values: { photo: `http://127.0.0.1:${port}/slow.png` },
    });
    const before = await balanceOf(t, key);
    const first = await get(url);
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("5");
    const renderId = first.json.error.render_id as string;
    expect(await balanceOf(t, key)).toBe(before - 1);

    // Retried while it still renders: the same render is waited for, not a second one charged.
    const retryWhileRendering = get(url);
    release();
    const retried = await retryWhileRendering;
    expect(retried.status).toBe(200);
    const again = await get(url);
    expect(again.status).toBe(200);
    expect(again.headers.get("cache-status")).toBe("pictor; hit");
    expect(sha(again.bytes)).toBe(sha(retried.bytes));
    expect(await balanceOf(t, key)).toBe(before - 1);
    expect((await api(t, "GET", `/v1/renders/${renderId}`, { key })).body.status).toBe("completed");
  });
});
