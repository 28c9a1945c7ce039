import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAssetToken, newId } from "../../src/domain/ids.ts";
import { EXT_BY_TYPE } from "../../src/http/views.ts";
import { testBackend } from "../api-pg/backend.ts";
import {
  api,
  balanceOf,
  insertAsset,
  logoPng,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  testTemplate,
  untilFinished,
} from "./support.ts";

let t: TestServer;
let key: string;
let accountId: string;

beforeAll(async () => {
  // ffmpeg is on PATH, but PICTOR_FFMPEG names nothing: this server has no MP4 encoder.
  t = await startTestServer({ env: { PATH: process.env.PATH ?? "", PICTOR_FFMPEG: "/nonexistent/ffmpeg" } });
  ({ key, accountId } = await newAccount(t, 1000));
  await publishTemplate(t, key);
});
afterAll(() => t?.close());

const render = (body: Record<string, unknown>, headers?: Record<string, string>) =>
  api(t, "POST", "/v1/renders", {
    key,
    body: { template: "test-card", modifications: [], ...body },
    ...(headers ? { headers } : {}),
  });

describe("POST /v1/renders: animated formats without an encoder", () => {
  it("refuses mp4 with 422 format_unavailable before any charge", async () => {
    const animated = JSON.parse(
      readFileSync(new URL("../../../../examples/animated/launch-countdown.json", import.meta.url), "utf8"),
    ) as unknown;
    await publishTemplate(t, key, animated);
    const before = await balanceOf(t, key);
    const res = await render({ template: "launch-countdown", format: "mp4", wait: true });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("format_unavailable");
    expect(res.body.error.message).toMatch(/ffmpeg/);
    expect(await balanceOf(t, key)).toBe(before);
  });
});

describe("POST /v1/renders: happy paths", () => {
  it("is asynchronous by default: 202, the job, Location; the job then completes", async () => {
    const res = await render({ modifications: [{ name: "title", text: "Async" }] });
    expect(res.status).toBe(202);
    expect(res.headers.get("location")).toBe(`/v1/renders/${res.body.id}`);
    expect(res.body).toMatchObject({
      status: "queued",
      template: "test-card",
      template_version: 1,
      frame: "main",
    });
    expect(res.body.id).toMatch(/^rnd_/);
    const done = await untilFinished(t, key, res.body.id);
    expect(done).toMatchObject({
      status: "completed",
      width: 200,
      height: 100,
      credits_charged: 1,
      error: null,
    });
    expect(done.asset_url).toMatch(/\/a\/[0-9a-f]{32}\.png$/);
  });

  it('waits with "wait": true and returns 200 with the completed job, sized frame x scale', async () => {
    const res = await render({ wait: true, scale: 2, modifications: [{ name: "bg", color: "#112233" }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "completed",
      width: 400,
      height: 200,
      scale: 2,
      credits_charged: 4,
    });
    const image = await fetch(res.body.asset_url);
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([400, 200]);
  });

  it("answers a wait with the job exactly as GET /v1/renders/:id then reads it back", async () => {
    // The waiter is answered from the worker's outcome, not from the database: the two must agree.
    const res = await render({
      wait: true,
      metadata: { campaign: "spring" },
      tags: ["a", "b"],
      modifications: [{ name: "title", text: "Same" }],
    });
    expect(res.status).toBe(200);
    const read = await api(t, "GET", `/v1/renders/${res.body.id}`, { key });
    // output_url is signed anew per answer (its expiry moves with the clock); the rest is identical.
    const { output_url: waitedUrl, ...waited } = res.body;
    const { output_url: readUrl, ...stored } = read.body;
    expect(stored).toEqual(waited);
    expect(typeof waitedUrl).toBe("string");
    expect(typeof readUrl).toBe("string");
  });

  it("waits with Prefer: wait=N", async () => {
    const res = await render({}, { prefer: "wait=30" });
    expect(res.status).toBe(200);
    expect(res.headers.get("preference-applied")).toBe("wait=30");
    expect(res.body.status).toBe("completed");
  });

  it("charges ceil(scale^2) and rounds the output size for fractional scales", async () => {
    const before = await balanceOf(t, key);
    const res = await render({ wait: true, scale: 1.5, frame: "wide" });
    expect(res.body).toMatchObject({ width: 450, height: 150, credits_charged: 3, frame: "wide" });
    expect(await balanceOf(t, key)).toBe(before - 3);
    const four = await render({ wait: true, scale: 4 });
    expect(four.body).toMatchObject({ width: 800, height: 400, credits_charged: 16 });
  });

  it.each([
    ["png", "image/png", [0x89, 0x50]],
    ["jpg", "image/jpeg", [0xff, 0xd8]],
    ["jpeg", "image/jpeg", [0xff, 0xd8]],
    ["webp", "image/webp", [0x52, 0x49]],
  ])("serves %s with the right type on both links", async (format, type, magic) => {
    const res = await render({ wait: true, format, quality: 80, metadata: { campaign: "x" }, tags: ["t1"] });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ campaign: "x" });
    for (const url of [res.body.asset_url, res.body.output_url]) {
      const file = await fetch(url);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe(type);
      const bytes = new Uint8Array(await file.arrayBuffer());
      expect(Number(file.headers.get("content-length"))).toBe(bytes.byteLength);
      expect([...bytes.slice(0, 2)]).toEqual(magic);
    }
  });

  it("renders an image_url fetched through the guarded fetcher, and an asset in the bound folder", async () => {
    const logo = await insertAsset(t, accountId, "brand/", await logoPng());
    const res = await render({
      wait: true,
      modifications: [
        { name: "photo", image_url: t.images.url("/photo.png") },
        { name: "logo", image_url: logo.id },
      ],
    });
    expect(res.status).toBe(200);
    const png = await sharp(Buffer.from(await (await fetch(res.body.asset_url)).arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [
      ...png.data.subarray((y * 200 + x) * png.info.channels, (y * 200 + x) * png.info.channels + 3),
    ];
    expect(at(50, 50)).toEqual([0xcc, 0x33, 0x00]);
    expect(at(170, 30)).toEqual([0x00, 0xff, 0x00]);
  });
});

describe("optimize: PNG encoder effort", () => {
  const bytesOf = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
  const pixelsOf = (png: Buffer) => sharp(png).toColourspace("srgb").ensureAlpha().raw().toBuffer();

  it("defaults to speed, waiting or not; size asked for: fewer bytes, identical pixels", async () => {
    const body = { modifications: [{ name: "photo", image_url: t.images.url("/photo.png") }] };
    const waited = await render({ ...body, wait: true });
    const queued = await render({ ...body, optimize: "size" });
    expect(queued.status).toBe(202);
    const done = await untilFinished(t, key, queued.body.id);
    const [speed, size] = await Promise.all([bytesOf(waited.body.asset_url), bytesOf(done.asset_url)]);
    expect(size.byteLength).toBeLessThan(speed.byteLength);
    expect(Buffer.compare(await pixelsOf(size), await pixelsOf(speed))).toBe(0);
    // Asked for explicitly, each way round.
    const waitedSmall = await render({ ...body, wait: true, optimize: "size" });
    expect((await bytesOf(waitedSmall.body.asset_url)).equals(size)).toBe(true);
    const queuedDefault = await render(body);
    const fast = await untilFinished(t, key, queuedDefault.body.id);
    expect((await bytesOf(fast.asset_url)).equals(speed)).toBe(true);
  });

  it("refuses a value other than speed or size with 400, nothing charged", async () => {
    const before = await balanceOf(t, key);
    const res = await render({ wait: true, optimize: "max" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(await balanceOf(t, key)).toBe(before);
  });
});

describe("asset_url and output_url", () => {
  it("asset_url is public, immutable, with an ETag honoured by If-None-Match", async () => {
    const res = await render({ wait: true });
    const first = await fetch(res.body.asset_url);
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = first.headers.get("etag") as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await fetch(res.body.asset_url, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect((await fetch(res.body.asset_url.replace(/\.png$/, ".jpg"))).status).toBe(404);
  });

  it("file responses are sandboxed and never sniffed; a raster image is inline, anything else a download", async () => {
    const res = await render({ wait: true });
    const links = [res.body.asset_url];
    // An object store's presigned output_url is served by the store, not by this origin.
    if (new URL(res.body.output_url).origin === new URL(t.url).origin) links.push(res.body.output_url);
    for (const link of links) {
      const file = await fetch(link);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-security-policy"), link).toBe("sandbox");
      expect(file.headers.get("x-content-type-options"), link).toBe("nosniff");
      expect(file.headers.get("content-disposition"), link).toBeNull();
    }

    // Names as a record could hold them before names were cleaned on PATCH.
    const cases: [contentType: string, name: string, disposition: string][] = [
      [
        "font/ttf",
        'Acme "Brand" — Ünïcode (1).ttf',
        `attachment; filename="Acme _Brand_ _ _n_code _1_.ttf"; filename*=UTF-8''Acme%20%22Brand%22%20%E2%80%94%20%C3%9Cn%C3%AFcode%20%281%29.ttf`,
      ],
      [
        "application/pdf",
        "..\\..\\report\u202Efdp.exe",
        `attachment; filename="reportfdp.exe.pdf"; filename*=UTF-8''reportfdp.exe.pdf`,
      ],
      [
        "application/pdf",
        "a\r\nSet-Cookie: x=1",
        `attachment; filename="aSet-Cookie_ x_1.pdf"; filename*=UTF-8''aSet-Cookie%3A%20x%3D1.pdf`,
      ],
      ["image/svg+xml", "logo.svg", `attachment; filename="logo.svg"; filename*=UTF-8''logo.svg`],
      ["font/otf", "../..", `attachment; filename="download.otf"; filename*=UTF-8''download.otf`],
    ];
    for (const [contentType, name, disposition] of cases) {
      const id = newId("ast");
      const token = newAssetToken();
      const bytes = new TextEncoder().encode("<script>alert(document.domain)</script>");
      await t.data.blobs.put(`assets/${id}`, bytes);
      await t.data.assets.insert({
        id,
        accountId,
        folder: "files/",
        name,
        contentType,
        byteSize: bytes.byteLength,
        width: null,
        height: null,
        blobKey: `assets/${id}`,
        token,
        etag: `"${id}"`,
        metadata: {},
        tags: [],
        renderId: null,
        createdAt: new Date().toISOString(),
      });
      const file = await fetch(`${t.url}/a/${token}.${EXT_BY_TYPE[contentType]}`);
      expect(file.status, name).toBe(200);
      expect(file.headers.get("content-type")).toBe(contentType);
      expect(file.headers.get("content-security-policy")).toBe("sandbox");
      expect(file.headers.get("x-content-type-options")).toBe("nosniff");
      expect(file.headers.get("content-disposition"), name).toBe(disposition);
    }
  });

  // The same contract for the API's HMAC link and an object store's presigned URL: the link's expiry
  // and signature parameters are whatever each kind names them; changing any of them, or the object
  // in the path, is refused. The exact HMAC form is checked in test/output-links/ (embedded only).
  it("output_url tampered (object, expiry or signature) is 403", async () => {
    const res = await render({ wait: true });
    const url = new URL(res.body.output_url);
    expect((await fetch(url)).status).toBe(200);
    const signed = [...url.searchParams.keys()].filter((name) => /expire|date|^sig$|signature$/i.test(name));
    expect(signed.some((name) => /sig/i.test(name))).toBe(true);
    expect(signed.some((name) => /expire/i.test(name))).toBe(true);
    const tampered = signed.map((name) => {
      const bad = new URL(url);
      bad.searchParams.set(name, otherLastDigit(url.searchParams.get(name) ?? ""));
      return bad;
    });
    const otherObject = new URL(url);
    otherObject.pathname = url.pathname.replace(/(\.[a-z]+)$/, "x$1");
    for (const bad of [...tampered, otherObject]) {
      const r = await fetch(bad);
      expect(r.status, bad.href).toBe(403);
      expect(
        Buffer.from(await r.arrayBuffer())
          .subarray(0, 4)
          .equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])),
      ).toBe(false);
    }
  });
});

describe("links without --public-url: the Host header", () => {
  const testUsesObjectStorage = testBackend() === "postgres-s3";
  /** GET with an exact Host header (fetch would not send a malformed one). */
  const getWithHost = (path: string, host: string) =>
    new Promise<{ status: number; body: { asset_url: string; output_url: string } }>((resolve, reject) => {
      const req = httpRequest(
        `${t.url}${path}`,
        { headers: { host, authorization: `Bearer ${key}` } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on("error", reject);
      req.end();
    });

  it("a valid host[:port] names the links; anything else is never copied (the address reached is)", async () => {
    const rendered = await render({ wait: true });
    expect(rendered.status, JSON.stringify(rendered.body)).toBe(200);
    const { id } = rendered.body;
    for (const host of ["pictor.example:8443", "pictor.example", "[::1]:8080", "203.0.113.7"]) {
      const res = await getWithHost(`/v1/renders/${id}`, host);
      expect(res.status, host).toBe(200);
      expect(res.body.asset_url.startsWith(`http://${host}/a/`), host).toBe(true);
      // With object storage, output_url is the store's presigned link, on the store's host.
      if (!testUsesObjectStorage)
        expect(res.body.output_url.startsWith(`http://${host}/o/`), host).toBe(true);
    }
    for (const host of [
      'evil.example:80/"><x',
      "evil.example/path",
      "user@evil.example",
      "evil.example:99999",
      "evil.example:8o",
      "evil .example",
      "evil.example?x=1",
      "evil.example#x",
      "[::1",
      "[not:an:ip]",
      "-evil.example",
      "evil\\example",
      "",
    ]) {
      const res = await getWithHost(`/v1/renders/${id}`, host);
      expect(res.status, host).toBe(200);
      expect(res.body.asset_url.startsWith(`${t.url}/a/`), `${host} -> ${res.body.asset_url}`).toBe(true);
      if (!testUsesObjectStorage) expect(res.body.output_url.startsWith(`${t.url}/o/`), host).toBe(true);
      expect(res.body.output_url).not.toContain("evil");
    }
  });
});

/** The value with its last digit changed: a one-second shift of a date or expiry, one nibble of a signature. */
function otherLastDigit(value: string): string {
  const at = value.search(/\d\D*$/);
  if (at < 0) throw new Error(`no digit in ${value}`);
  return `${value.slice(0, at)}${(Number(value[at]) + 1) % 10}${value.slice(at + 1)}`;
}

describe("POST /v1/renders: refusals charge nothing", () => {
  it.each([0, -1, 4.01, "2", null, 1e308, 0.999])("scale %s is 400 invalid_scale", async (scale) => {
    const before = await balanceOf(t, key);
    const res = await render({ scale });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_scale");
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("an output over 256 megapixels (8000 x 8000 at scale 3) is 400 invalid_request naming scale", async () => {
    const huge = testTemplate("huge-frame");
    (huge.frames[0] as { width: number; height: number }).width = 8000;
    (huge.frames[0] as { width: number; height: number }).height = 8000;
    await publishTemplate(t, key, huge);
    const before = await balanceOf(t, key);
    const res = await render({ template: "huge-frame", scale: 3 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_request", errors: [{ path: "scale" }] });
    expect(res.body.error.message).toContain("24000x24000");
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("unknown_slot names the slot", async () => {
    const before = await balanceOf(t, key);
    const res = await render({ modifications: [{ name: "headlin", text: "x" }] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "unknown_slot", slot: "headlin" });
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("value_not_encodable names the slot when a QR code cannot hold the value, and charges nothing", async () => {
    const document = {
      version: 2,
      key: "ticket-qr",
      name: "Ticket",
      slots: [{ name: "code", type: "text", default: "TICKET-1" }],
      frames: [
        {
          name: "main",
          width: 200,
          height: 200,
          layers: [
            {
              id: "qr",
              type: "qr",
              x: 0,
              y: 0,
              width: 200,
              height: 200,
              value: "",
              error_correction: "H",
              bind: { value: "code" },
            },
          ],
        },
      ],
    };
    await publishTemplate(t, key, document);
    const before = await balanceOf(t, key);
    const tooLong = { name: "code", text: "x".repeat(3000) };
    const res = await render({ template: "ticket-qr", wait: true, modifications: [tooLong] });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "value_not_encodable", slot: "code" });
    expect(res.body.error.message).toContain("error correction level H");
    const batch = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: {
        renders: [
          { template: "ticket-qr", modifications: [tooLong] },
          { template: "ticket-qr", modifications: [{ name: "code", text: "SEAT-14C" }] },
        ],
      },
    });
    expect(batch.body.renders?.[0] ?? batch.body.rows?.[0]).toMatchObject({
      error: { code: "value_not_encodable" },
    });
    expect(await balanceOf(t, key)).toBe(before - 1);
    const ok = await render({
      template: "ticket-qr",
      wait: true,
      modifications: [{ name: "code", text: "SEAT-15D" }],
    });
    expect(ok.body.status).toBe("completed");
  });

  it("rich text slots: malformed markup is 400 invalid_request with the path and position, nothing charged", async () => {
    const document = {
      version: 2,
      key: "rich-quote",
      name: "Quote",
      slots: [{ name: "quote", type: "text", rich: true }],
      inline_styles: { em: { style: "italic", color: "#E11D48" } },
      frames: [
        {
          name: "main",
          width: 300,
          height: 100,
          layers: [
            {
              id: "quote",
              type: "text",
              x: 10,
              y: 10,
              width: 280,
              height: 80,
              text: "A <b>bold</b> claim",
              font: { family: "Inter", size: 24 },
              color: "#111111",
              bind: { text: "quote" },
            },
          ],
        },
      ],
    };
    await publishTemplate(t, key, document);
    const before = await balanceOf(t, key);
    const bad = { name: "quote", text: "Say <b>hello</i>" };
    const res = await render({ template: "rich-quote", wait: true, modifications: [bad] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.errors[0]).toMatchObject({
      path: "modifications[0].text",
      message:
        "has malformed markup at character 13: </i> closes <b>, opened at character 5: close <b> first",
    });
    const batch = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: { renders: [{ template: "rich-quote", modifications: [bad] }] },
    });
    expect(JSON.stringify(batch.body)).toContain("malformed markup at character 13");
    // A tag the template defines no inline style for is refused the same way.
    const unknown = await render({
      template: "rich-quote",
      wait: true,
      modifications: [{ name: "quote", text: "A <mark>marked</mark> <em>claim</em>" }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("invalid_request");
    expect(unknown.body.error.errors[0]).toMatchObject({
      path: "modifications[0].text",
      message:
        'has malformed markup at character 3: <mark> is not a tag of this template (it has <b>, <i>, <u>, <s>, <color>, <br>, <em>): define an inline style "mark", or write &lt; for a literal "<"',
    });
    expect(await balanceOf(t, key)).toBe(before);
    const ok = await render({
      template: "rich-quote",
      wait: true,
      modifications: [
        { name: "quote", text: 'Say <b>hello</b> in <color value="#E11D48">red</color>, <em>softly</em>' },
      ],
    });
    expect(ok.body.status).toBe("completed");
    expect(await balanceOf(t, key)).toBe(before - 1);
  });

  it("value_not_encodable names the slot when a rating layer gets a value that is not a rating, and charges nothing", async () => {
    const document = {
      version: 2,
      key: "review-stars",
      name: "Review",
      slots: [{ name: "stars", type: "text" }],
      frames: [
        {
          name: "main",
          width: 200,
          height: 40,
          layers: [
            {
              id: "rating",
              type: "rating",
              x: 0,
              y: 0,
              width: 200,
              height: 40,
              value: "",
              bind: { value: "stars" },
            },
          ],
        },
      ],
    };
    await publishTemplate(t, key, document);
    const before = await balanceOf(t, key);
    for (const text of ["6", "great"]) {
      const res = await render({
        template: "review-stars",
        wait: true,
        modifications: [{ name: "stars", text }],
      });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: "value_not_encodable", slot: "stars" });
      expect(res.body.error.message).toContain(
        "Slot 'stars' must be a number from 0 to 5 for the rating layer",
      );
    }
    expect(await balanceOf(t, key)).toBe(before);
    const ok = await render({
      template: "review-stars",
      wait: true,
      modifications: [{ name: "stars", text: "4,5" }],
    });
    expect(ok.body.status).toBe("completed");
  });

  it("value_not_encodable says why an EAN-13 barcode cannot hold the value, and charges nothing", async () => {
    const document = {
      version: 2,
      key: "product-ean",
      name: "Product",
      slots: [{ name: "gtin", type: "text", default: "400638133393" }],
      frames: [
        {
          name: "main",
          width: 240,
          height: 100,
          layers: [
            {
              id: "ean",
              type: "barcode",
              symbology: "ean13",
              x: 0,
              y: 0,
              width: 240,
              height: 100,
              value: "",
              bind: { value: "gtin" },
            },
          ],
        },
      ],
    };
    await publishTemplate(t, key, document);
    const before = await balanceOf(t, key);
    const res = await render({
      template: "product-ean",
      wait: true,
      modifications: [{ name: "gtin", text: "40063813339X" }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "value_not_encodable", slot: "gtin" });
    expect(res.body.error.message).toContain("EAN-13: 12 or 13 digits expected");
    expect(await balanceOf(t, key)).toBe(before);
    const ok = await render({
      template: "product-ean",
      wait: true,
      modifications: [{ name: "gtin", text: "4006381333931" }],
    });
    expect(ok.body.status).toBe("completed");
  });

  it("template_not_published for a draft", async () => {
    await api(t, "POST", "/v1/templates", { key, body: { document: testTemplate("draft-only") } });
    const res = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "draft-only", modifications: [] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("template_not_published");
  });

  it("an unknown template is 404 not_found", async () => {
    const res = await api(t, "POST", "/v1/renders", { key, body: { template: "nope", modifications: [] } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("a value that does not match the slot type is 400 invalid_request with the path", async () => {
    const wrongField = await render({ modifications: [{ name: "title", color: "#000000" }] });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error.errors[0].path).toBe("modifications[0]");
    const before = await balanceOf(t, key);
    for (const color of ["red", "#FFF", "#GGGGGG", "#12345", "112233"]) {
      const badHex = await render({ modifications: [{ name: "bg", color }] });
      expect(badHex.status, color).toBe(400);
      expect(badHex.body.error.code).toBe("invalid_request");
      expect(badHex.body.error.errors[0].path).toBe("modifications[0].color");
    }
    // A megabyte of text fits the body limit but not the slot: refused with its path.
    const long = await render({ modifications: [{ name: "title", text: "x".repeat(1_000_000) }] });
    expect(long.status).toBe(400);
    expect(long.body.error.errors[0].path).toBe("modifications[0].text");
    const twice = await render({
      modifications: [
        { name: "title", text: "a" },
        { name: "title", text: "b" },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe("invalid_request");
    expect(twice.body.error.errors[0].path).toBe("modifications[1].name");
    expect(await balanceOf(t, key)).toBe(before);
    const frame = await render({ frame: "nope" });
    expect(frame.body.error).toMatchObject({ code: "invalid_request", errors: [{ path: "frame" }] });
  });

  it("image_out_of_folder: a URL, or an asset outside the slot's folder", async () => {
    const outside = await insertAsset(t, accountId, "other/", await logoPng());
    const { accountId: otherAccount } = await newAccount(t, 1);
    const foreign = await insertAsset(t, otherAccount, "brand/", await logoPng());
    for (const value of [
      t.images.url("/photo.png"),
      outside.id,
      foreign.id,
      `${t.url}/a/${foreign.token}.png`,
    ]) {
      const res = await render({ modifications: [{ name: "logo", image_url: value }] });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: "image_out_of_folder", slot: "logo" });
    }
  });

  it("invalid_webhook_url for private or non-http targets", async () => {
    for (const url of [
      "http://127.0.0.1:1/hook",
      "http://10.0.0.1/hook",
      "ftp://example.com/x",
      "http://[::1]/x",
    ]) {
      const res = await render({ webhook_url: url });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("invalid_webhook_url");
    }
  });

  it("a malformed webhook_url or image_url is 400 invalid_request before anything is looked up or charged", async () => {
    const before = await balanceOf(t, key);
    for (const url of ["not a url", "http://", "http://exa mple .com/hook"]) {
      // Checked with the body: an unknown template does not hide it behind a 404.
      const res = await render({ template: "no-such-template", webhook_url: url });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({
        code: "invalid_request",
        errors: [{ path: "webhook_url", message: "Not a valid absolute URL." }],
      });
    }
    for (const url of ["http://", "https://exa mple .com/x.png", "http://[::1/x.png"]) {
      const res = await render({ wait: true, modifications: [{ name: "photo", image_url: url }] });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.errors[0].path).toBe("modifications[0].image_url");
    }
    const batch = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: { webhook_url: "not a url", renders: [{ template: "test-card", modifications: [] }] },
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error.errors).toEqual([{ path: "webhook_url", message: "Not a valid absolute URL." }]);
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("a slot named like an Object built-in (__proto__, constructor) takes its value like any other", async () => {
    const document = testTemplate("odd-slot-names", [
      { name: "__proto__", type: "text", default: "a" },
      { name: "constructor", type: "color", default: "#000000" },
    ]);
    // The title layer shows the `__proto__` slot, the background the `constructor` one.
    const frame = document.frames[0] as { bind: Record<string, string>; layers: { bind: object }[] };
    frame.bind = { background: "constructor" };
    (frame.layers[2] as { bind: object }).bind = { text: "__proto__" };
    const created = await api(t, "POST", "/v1/templates", { key, body: { publish: true, document } });
    expect(created.status).toBe(201);
    const bytesOf = async (text: string, color: string) => {
      const res = await render({
        template: "odd-slot-names",
        wait: true,
        modifications: [
          { name: "__proto__", text },
          { name: "constructor", color },
        ],
      });
      expect(res.status).toBe(200);
      return Buffer.from(await (await fetch(res.body.asset_url)).arrayBuffer());
    };
    const first = await bytesOf("AAAA", "#FF0000");
    expect((await bytesOf("BBBB", "#FF0000")).equals(first)).toBe(false);
    expect((await bytesOf("AAAA", "#00FF00")).equals(first)).toBe(false);
    const twice = await render({
      template: "odd-slot-names",
      modifications: [
        { name: "__proto__", text: "x" },
        { name: "__proto__", text: "y" },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.errors).toEqual([
      { path: "modifications[1].name", message: "Slot '__proto__' is given twice." },
    ]);
  });

  it("insufficient_credits is 402 with required and balance", async () => {
    const poor = await newAccount(t, 3);
    await publishTemplate(t, poor.key);
    const res = await api(t, "POST", "/v1/renders", {
      key: poor.key,
      body: { template: "test-card", modifications: [], scale: 2 },
    });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: "insufficient_credits", required: 4, balance: 3 });
    expect(await balanceOf(t, poor.key)).toBe(3);
  });

  it("unknown fields and bad bodies are 400", async () => {
    expect((await render({ colour: "x" })).body.error.code).toBe("invalid_request");
    const res = await fetch(`${t.url}/v1/renders`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("invalid_json");
  });

  it("a field that takes one of several forms says which ones", async () => {
    const wait = await render({ wait: 61 });
    expect(wait.status).toBe(400);
    expect(wait.body.error.message).toBe("'wait' must be true or false, or a number from 0 to 60.");
    expect(wait.body.error.errors).toEqual([
      { path: "wait", message: "must be true or false, or a number from 0 to 60" },
    ]);
    const format = await render({ format: "tiff" });
    expect(format.body.error.message).toBe(
      `'format' must be one of "png", "jpg", "jpeg", "webp", "pdf", "gif", "mp4".`,
    );
  });
});

describe("failed renders are refunded exactly once", () => {
  it.each([
    ["/missing.png", "image_fetch_failed"],
    ["/garbage", "image_invalid"],
  ])("image %s in wait mode is 422 %s with render_id; refunded", async (path, code) => {
    const before = await balanceOf(t, key);
    const res = await render({
      wait: true,
      scale: 2,
      modifications: [{ name: "photo", image_url: t.images.url(path) }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code, credits_refunded: 4 });
    expect(res.body.error.render_id).toMatch(/^rnd_/);
    expect(await balanceOf(t, key)).toBe(before);
    const job = (await api(t, "GET", `/v1/renders/${res.body.error.render_id}`, { key })).body;
    expect(job).toMatchObject({ status: "failed", credits_charged: 4, credits_refunded: 4, asset_url: null });
    expect(job.error.code).toBe(code);
    const ledger = (await api(t, "GET", "/v1/account/ledger?limit=200", { key })).body.data.filter(
      (e: { render_id: string }) => e.render_id === job.id,
    );
    expect(ledger.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
      ["charge", -4],
      ["refund", 4],
    ]);
  });

  it("a second refund of the same render is refused by the database", async () => {
    const res = await render({
      wait: true,
      modifications: [{ name: "photo", image_url: t.images.url("/nope") }],
    });
    const id = res.body.error.render_id;
    await t.data.renders.failAndRefund(
      id,
      { code: "internal_error", message: "again" },
      new Date().toISOString(),
    );
    expect(() =>
      t.data.db
        .prepare(
          "INSERT INTO ledger (account_id, kind, amount, render_id, created_at) VALUES (?, 'refund', 1, ?, ?)",
        )
        .run(accountId, id, new Date().toISOString()),
    ).toThrow(/unique/i);
    const refunds = t.data.db
      .prepare("SELECT COUNT(*) AS n FROM ledger WHERE render_id = ? AND kind = 'refund'")
      .get(id);
    expect(refunds?.n).toBe(1);
  });
});

describe("image_url goes through the SSRF guard (the fetcher's own tests cover every matrix row)", () => {
  it.each([
    "http://127.0.0.1:1/x.png",
    "http://[::1]/x.png",
    "http://0x7f000001/x.png",
    "http://2130706433/x.png",
    "http://169.254.169.254/latest/meta-data",
    "http://10.0.0.1/x.png",
    "http://localhost/x.png",
    "http://[::ffff:127.0.0.1]/x.png",
  ])("%s fails the render with image_fetch_failed and a refund", async (url) => {
    const before = await balanceOf(t, key);
    const res = await render({ wait: true, modifications: [{ name: "photo", image_url: url }] });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("image_fetch_failed");
    // The way out is in the message: upload it instead.
    expect(res.body.error.message).toMatch(
      /^Fetching the image failed \(blocked\): .* Upload the file \(POST \/v1\/assets\)/,
    );
    expect(await balanceOf(t, key)).toBe(before);
  });
});

describe("Idempotency-Key", () => {
  it("replays the first result and refuses the same key with another body", async () => {
    const headers = { "idempotency-key": `k-${Date.now()}` };
    const first = await render({ modifications: [{ name: "title", text: "once" }] }, headers);
    const second = await render({ modifications: [{ name: "title", text: "once" }] }, headers);
    expect(second.status).toBe(first.status);
    expect(second.body.id).toBe(first.body.id);
    const other = await render({ modifications: [{ name: "title", text: "other" }] }, headers);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe("idempotency_key_reused");
  });
});

describe("GET /v1/renders/:id", () => {
  it("is 404 for an unknown id", async () => {
    const res = await api(t, "GET", "/v1/renders/rnd_nope", { key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});

describe("validation messages for fields of several forms", () => {
  it("name each alternative with its article, arrays and objects included", async () => {
    const res = await api(t, "POST", "/v1/assets/query", { key, body: { tags: 5 } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).not.toMatch(/\ba array\b|\ba object\b/);
    expect(res.body.error.message).toMatch(/^'tags' must be /);
  });
});
