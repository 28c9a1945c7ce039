import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { prepareImage } from "@pictor/render-node";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, insertAsset, newAccount, startTestServer, type TestServer } from "../api/support.ts";

let t: TestServer;
let owner: { accountId: string; key: string };
let other: { accountId: string; key: string };
let assetId = "";
let assetUrl = "";
let png: Buffer;

beforeAll(async () => {
  t = await startTestServer();
  owner = await newAccount(t);
  other = await newAccount(t);
  png = await sharp({ create: { width: 40, height: 20, channels: 4, background: "#3366ccaa" } })
    .png()
    .toBuffer();
  const asset = await insertAsset(t, owner.accountId, "brand/", png);
  assetId = asset.id;
  assetUrl = `${t.url}/a/${asset.token}.png`;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const box = { width: 30, height: 30, fit: "cover", focal: { x: 0.5, y: 0.5 } };

async function prepare(key: string | undefined, body: unknown) {
  return fetch(`${t.url}/v1/editor/prepare-image`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
}

describe("POST /v1/editor/prepare-image", () => {
  it("returns the render pipeline's straight RGBA for the exact box, for asset://, bare ids and asset URLs", async () => {
    const expected = await prepareImage(png, box as Parameters<typeof prepareImage>[1]);
    // The asset URL is read from the store, not fetched: loopback is not on this server's allow-list.
    for (const src of [`asset://${assetId}`, assetId, assetUrl]) {
      const res = await prepare(owner.key, { src, ...box });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-image-width")).toBe("30");
      expect(res.headers.get("x-image-height")).toBe("30");
      expect(res.headers.get("x-image-upscaled")).toBe(expected.upscaled ? "1" : "0");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.length).toBe(30 * 30 * 4);
      expect(Buffer.from(bytes).equals(Buffer.from(expected.rgba))).toBe(true);
    }
  });

  it("needs an API key", async () => {
    expect((await prepare(undefined, { src: assetId, ...box })).status).toBe(401);
  });

  it("never serves another account's asset, by id or by URL", async () => {
    // Another account's asset URL is an ordinary URL to it: fetched through the SSRF guard, which
    // refuses this loopback server.
    for (const src of [assetId, assetUrl]) {
      const res = await prepare(other.key, { src, ...box });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("image_fetch_failed");
    }
  });

  it("refuses a source that is neither an asset nor an http(s) URL, naming the field", async () => {
    const res = await api(t, "POST", "/v1/editor/prepare-image", {
      key: owner.key,
      body: { src: "file:///etc/passwd", ...box },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.errors[0].path).toBe("src");
  });

  it("validates the box", async () => {
    const res = await api(t, "POST", "/v1/editor/prepare-image", {
      key: owner.key,
      body: { src: assetId, ...box, width: 0 },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error)).toContain("width");
    // Within each side's range, but larger than any render draws (it would be gigabytes of RGBA).
    const huge = await api(t, "POST", "/v1/editor/prepare-image", {
      key: owner.key,
      body: { src: assetId, ...box, width: 24_000, height: 24_000 },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatchObject({ code: "invalid_request", errors: [{ path: "width" }] });
  });

  it("fetches URLs through the SSRF guard: an allow-listed origin works, undecodable bytes are image_invalid", async () => {
    const ok = await prepare(owner.key, { src: t.images.url("/photo.png"), ...box });
    expect(ok.status).toBe(200);
    const bad = await api(t, "POST", "/v1/editor/prepare-image", {
      key: owner.key,
      body: { src: t.images.url("/garbage"), ...box },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("image_invalid");
  });

  it("refuses private addresses that are not allow-listed", async () => {
    const res = await api(t, "POST", "/v1/editor/prepare-image", {
      key: owner.key,
      body: { src: "http://10.0.0.1/x.png", ...box },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("image_fetch_failed");
  });
});

describe("prepare-image under load", () => {
  let loaded: TestServer;
  const held: ServerResponse[] = [];
  let arrived: () => void = () => {};
  const hold = createServer((_req, res) => {
    held.push(res);
    if (held.length === 32) arrived();
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => hold.listen(0, "127.0.0.1", resolve));
    loaded = await startTestServer({ allowPorts: [(hold.address() as AddressInfo).port] });
  }, 60_000);
  afterAll(async () => {
    for (const res of held) res.destroy();
    await loaded?.close();
    await new Promise((resolve) => hold.close(resolve));
  });

  it("an account with 32 images in preparation gets 429 with Retry-After for more; other accounts do not", async () => {
    const busy = await newAccount(loaded);
    const calm = await newAccount(loaded);
    const calmAsset = (await insertAsset(loaded, calm.accountId, "brand/", png)).id;
    const send = (key: string, src: string) =>
      api(loaded, "POST", "/v1/editor/prepare-image", { key, body: { src, ...box } });
    const all32 = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const port = (hold.address() as AddressInfo).port;
    const stalled = Array.from({ length: 32 }, (_, i) => send(busy.key, `http://127.0.0.1:${port}/${i}.png`));
    await all32;
    const refused = await send(busy.key, `http://127.0.0.1:${port}/one-more.png`);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await send(calm.key, calmAsset)).status).toBe(200);

    for (const res of held.splice(0)) res.writeHead(404).end();
    expect((await Promise.all(stalled)).map((r) => r.status)).toEqual(Array(32).fill(422));
    // Their turn over, the account prepares again.
    const busyAsset = (await insertAsset(loaded, busy.accountId, "brand/", png)).id;
    expect((await send(busy.key, busyAsset)).status).toBe(200);
  });
});
