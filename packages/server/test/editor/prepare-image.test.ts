import { createServer, type ServerResponse } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
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

const sendTo = (url: string, key: string, body: unknown) =>
  fetch(`${url}/v1/editor/prepare-image`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });

/** A client that reads the status line and headers of its answer, then nothing more. */
function stalledAt(url: string, key: string, body: unknown): Promise<{ socket: Socket; head: string }> {
  const { hostname, port } = new URL(url);
  const json = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST /v1/editor/prepare-image HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
      );
    });
    socket.once("data", (chunk) => {
      socket.pause();
      resolve({ socket, head: chunk.toString("latin1", 0, Math.min(chunk.length, 512)) });
    });
    socket.once("error", reject);
  });
}

describe("prepare-image answers are bounded", () => {
  let bounded: TestServer;
  let busy: { accountId: string; key: string };
  let calm: { accountId: string; key: string };
  let busyAsset = "";
  let calmAsset = "";

  beforeAll(async () => {
    bounded = await startTestServer();
    busy = await newAccount(bounded);
    calm = await newAccount(bounded);
    busyAsset = (await insertAsset(bounded, busy.accountId, "brand/", png)).id;
    calmAsset = (await insertAsset(bounded, calm.accountId, "brand/", png)).id;
  }, 60_000);
  afterAll(async () => {
    await bounded?.close();
  });

  const send = (key: string, body: unknown) => sendTo(bounded.url, key, body);
  const stalled = (key: string, body: unknown) => stalledAt(bounded.url, key, body);
  const sendUntilAnswered = async (key: string, body: unknown): Promise<number> => {
    // Until the server has seen an earlier client close.
    for (;;) {
      const res = await send(key, body);
      await res.arrayBuffer();
      if (res.status !== 429) return res.status;
    }
  };

  it("answers at most 16 megapixels whatever the box, downscaled with the box's aspect", async () => {
    const res = await send(busy.key, { src: busyAsset, ...box, width: 8000, height: 6000 });
    expect(res.status).toBe(200);
    const width = Number(res.headers.get("x-image-width"));
    const height = Number(res.headers.get("x-image-height"));
    expect(width * height).toBeLessThanOrEqual(16_000_000);
    expect(width * height).toBeGreaterThan(15_900_000);
    expect(Math.abs(width / height - 8000 / 6000)).toBeLessThan(0.001);
    expect(res.headers.get("x-image-downscaled")).toBe("1");
    expect((await res.arrayBuffer()).byteLength).toBe(width * height * 4);
    // A box within the cap is answered exactly.
    const small = await send(busy.key, { src: busyAsset, ...box });
    expect(small.headers.get("x-image-downscaled")).toBe("0");
    await small.arrayBuffer();
  });

  it("an account whose client does not read a full-size answer gets 429 for more; other accounts do not", async () => {
    const huge = { src: busyAsset, ...box, width: 4000, height: 4000 };
    // One full-size answer (64 MB) is a quarter of the process's 256 MiB for editor images.
    const reader = await stalled(busy.key, huge);
    try {
      expect(reader.head).toMatch(/^HTTP\/1\.1 200 /);
      const refused = await send(busy.key, huge);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("rate_limited");
      expect(body.error.message).toMatch(/of this account's prepared images are not yet read/);
      const other = await send(calm.key, { src: calmAsset, ...box });
      expect(other.status).toBe(200);
      await other.arrayBuffer();
    } finally {
      reader.socket.destroy();
    }
    // Once that client is gone (the server sees the close), the account prepares again.
    expect(await sendUntilAnswered(busy.key, { src: busyAsset, ...box })).toBe(200);
  });

  it("each account has a budget of megapixels per second: past it 429 with Retry-After", async () => {
    // 40 megapixels at once, then almost none (one a hundred seconds, so a slow machine does not
    // refill a third answer meanwhile): two 16-megapixel answers, not a third.
    const budgeted = await startTestServer({
      env: { PICTOR_PREPARE_MEGAPIXELS_BURST: "40", PICTOR_PREPARE_MEGAPIXELS_PER_SECOND: "0.01" },
    });
    try {
      const account = await newAccount(budgeted);
      const other = await newAccount(budgeted);
      const asset = (await insertAsset(budgeted, account.accountId, "brand/", png)).id;
      const otherAsset = (await insertAsset(budgeted, other.accountId, "brand/", png)).id;
      const post = (key: string, body: unknown) =>
        fetch(`${budgeted.url}/v1/editor/prepare-image`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body: JSON.stringify(body),
        });
      // The box asked for is 64 megapixels; each answer is 16 and costs 16.
      const full = { src: asset, ...box, width: 8000, height: 8000 };
      for (let i = 0; i < 2; i++) {
        const res = await post(account.key, full);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      const refused = await post(account.key, full);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("rate_limited");
      expect(body.error.message).toMatch(/megapixels/);
      // Small images still fit in what is left; another account has its own budget.
      const thumb = await post(account.key, { src: asset, ...box });
      expect(thumb.status).toBe(200);
      await thumb.arrayBuffer();
      const others = await post(other.key, { src: otherAsset, ...box, width: 4000, height: 4000 });
      expect(others.status).toBe(200);
      await others.arrayBuffer();
    } finally {
      await budgeted.close();
    }
  });
});

describe("prepare-image answers within the memory plan", () => {
  let server: TestServer;
  const accounts: { key: string; asset: string }[] = [];

  beforeAll(async () => {
    // A memory budget of 1024 MiB gives the editor's images a tenth: 102 MiB, all accounts together.
    server = await startTestServer({ env: { PICTOR_MEMORY_BUDGET: "1024" } });
    for (let i = 0; i < 3; i++) {
      const account = await newAccount(server);
      accounts.push({
        key: account.key,
        asset: (await insertAsset(server, account.accountId, "brand/", png)).id,
      });
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("holds at most the plan's share of unread answers in all: past it 429 for every account, small ones still fit", async () => {
    const [first, second, third] = accounts as [
      (typeof accounts)[0],
      (typeof accounts)[0],
      (typeof accounts)[0],
    ];
    const reader = await stalledAt(server.url, first.key, {
      src: first.asset,
      ...box,
      width: 4000,
      height: 4000,
    });
    try {
      expect(reader.head).toMatch(/^HTTP\/1\.1 200 /);
      // Another account's full-size answer would take the process past 102 MiB.
      const refused = await sendTo(server.url, second.key, {
        src: second.asset,
        ...box,
        width: 4000,
        height: 4000,
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      const body = (await refused.json()) as { error: { code: string; message: string } };
      expect(body.error).toMatchObject({ code: "rate_limited" });
      expect(body.error.message).toMatch(/as many editor images as its memory allows/);
      // An editor's usual image fits beside it.
      const small = await sendTo(server.url, third.key, {
        src: third.asset,
        ...box,
        width: 1200,
        height: 630,
      });
      expect(small.status).toBe(200);
      expect((await small.arrayBuffer()).byteLength).toBe(1200 * 630 * 4);
    } finally {
      reader.socket.destroy();
    }
  });
});
