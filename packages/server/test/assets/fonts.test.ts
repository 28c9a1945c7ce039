import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSfnt, decodeFont, FontFileError } from "../../src/adapters/media/font-file.ts";
import {
  api,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  testTemplate,
} from "../api/support.ts";
import { differingPixels, pixelsBetween } from "./golden.ts";
import { ACME_FAMILY as FAMILY, fontCard, upload, ACME_WOFF2 as WOFF2 } from "./support.ts";

const TITLE = [{ name: "title", text: "BRAND 2026" }];

/** WOFF 1.0 from an sfnt: every table zlib-compressed (the format's own rule: only if smaller). */
function toWoff1(sfnt: Uint8Array): Uint8Array {
  const view = new DataView(sfnt.buffer, sfnt.byteOffset, sfnt.byteLength);
  const n = view.getUint16(4);
  const tables = Array.from({ length: n }, (_, i) => {
    const at = 12 + i * 16;
    const data = sfnt.subarray(view.getUint32(at + 8), view.getUint32(at + 8) + view.getUint32(at + 12));
    const packed = new Uint8Array(deflateSync(data));
    return {
      tag: view.getUint32(at),
      checksum: view.getUint32(at + 4),
      length: data.length,
      stored: packed.length < data.length ? packed : data,
    };
  });
  const header = 44 + n * 20;
  const total = tables.reduce((s, t) => s + Math.ceil(t.stored.length / 4) * 4, header);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x774f4646);
  v.setUint32(4, view.getUint32(0));
  v.setUint32(8, total);
  v.setUint16(12, n);
  v.setUint32(16, sfnt.length);
  let offset = header;
  tables.forEach((t, i) => {
    const at = 44 + i * 20;
    v.setUint32(at, t.tag);
    v.setUint32(at + 4, offset);
    v.setUint32(at + 8, t.stored.length);
    v.setUint32(at + 12, t.length);
    v.setUint32(at + 16, t.checksum);
    out.set(t.stored, offset);
    offset += Math.ceil(t.stored.length / 4) * 4;
  });
  return out;
}

describe("font files", () => {
  it("decodes WOFF2 to sfnt and reads the family, weight and style from it", async () => {
    const font = await decodeFont(WOFF2);
    expect(font).toMatchObject({ family: FAMILY, weight: 400, style: "normal", contentType: "font/ttf" });
    expect(font.uploadedAs).toBe("woff2");
    expect(new DataView(font.sfnt.buffer, font.sfnt.byteOffset).getUint32(0)).toBe(0x00010000);
  });

  it("decodes WOFF 1.0 and plain TTF to the same face", async () => {
    const { sfnt } = await decodeFont(WOFF2);
    const fromWoff = await decodeFont(toWoff1(sfnt));
    expect(fromWoff.uploadedAs).toBe("woff");
    expect(fromWoff.family).toBe(FAMILY);
    expect(fromWoff.sfnt.byteLength).toBeGreaterThan(0);
    expect((await decodeFont(sfnt)).family).toBe(FAMILY);
  });

  it("refuses broken fonts with a message saying what is wrong", async () => {
    const { sfnt } = await decodeFont(WOFF2);
    const reason = async (bytes: Uint8Array) =>
      decodeFont(bytes).then(
        () => "accepted",
        (e: unknown) => (e instanceof FontFileError ? e.message : `crash: ${String(e)}`),
      );
    expect(await reason(sfnt.subarray(0, 200))).toMatch(/truncated/);
    expect(await reason(WOFF2.subarray(0, 300))).toMatch(/WOFF2 file is corrupt/);
    const corruptWoff = toWoff1(sfnt);
    corruptWoff.fill(7, 400, 900);
    expect(await reason(corruptWoff)).toMatch(/WOFF file is corrupt/);
    expect(await reason(new TextEncoder().encode("ttcf0000"))).toMatch(/collections/);
    // A decompression bomb: the header claims a small font, two tables claim 20 MiB each. Refused
    // from the table directory, before anything is inflated.
    const bomb = toWoff1(sfnt);
    const directory = new DataView(bomb.buffer, bomb.byteOffset);
    for (const i of [0, 1]) directory.setUint32(44 + i * 20 + 12, 20 * 1024 * 1024);
    expect(await reason(bomb)).toMatch(/tables add up to over 30 MiB/);
    expect(
      await reason(buildSfnt(0x00010000, [{ tag: 0x68656164, checksum: 0, data: new Uint8Array(54) }])),
    ).toMatch(/lacks required tables/);
  });
});

describe("custom fonts over HTTP", () => {
  let t: TestServer;
  let key: string;
  beforeAll(async () => {
    t = await startTestServer();
    key = (await newAccount(t)).key;
  });
  afterAll(() => t?.close());

  it("uploads a WOFF2 into fonts/, lists it, and a template naming the family renders the golden", async () => {
    const up = await upload(t, key, WOFF2, {}, "acme.woff2");
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({
      folder: "fonts/",
      name: "acme.woff2",
      content_type: "font/ttf",
      font: { family: FAMILY, weight: 400, style: "normal" },
    });
    expect(up.body.asset_url).toMatch(/\.ttf$/);
    const file = await fetch(up.body.asset_url);
    expect(file.headers.get("content-type")).toBe("font/ttf");
    const fonts = await api(t, "GET", "/v1/assets/fonts", { key });
    expect(fonts.body.data.map((f: { id: string }) => f.id)).toEqual([up.body.id]);
    expect(fonts.body.next_cursor).toBeNull();

    await publishTemplate(t, key, fontCard("brand-card", FAMILY));
    const res = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "brand-card", modifications: TITLE, wait: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.warnings).toEqual([]);
    const png = new Uint8Array(await (await fetch(res.body.output_url)).arrayBuffer());
    expect(await differingPixels(png, "woff2-font-card")).toBe(0);

    // Without the upload the same family falls back: a warning, and different pixels.
    await publishTemplate(t, key, fontCard("fallback-card", "Not Uploaded Display"));
    const fallback = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "fallback-card", modifications: TITLE, wait: true },
    });
    expect(fallback.body.warnings.map((w: { code: string }) => w.code)).toContain("font_missing");
    const fallbackPng = new Uint8Array(await (await fetch(fallback.body.output_url)).arrayBuffer());
    expect(await pixelsBetween(fallbackPng, png)).toBeGreaterThan(100);
  });

  it("warns font_unknown when a saved or published template names a family neither shipped nor uploaded", async () => {
    const other = (await newAccount(t)).key;
    const warningsOf = (body: { warnings: { code: string; family: string }[] }) =>
      body.warnings.map((w) => [w.code, w.family]);
    // The account without the upload: create, update and publish each say so.
    const created = await api(t, "POST", "/v1/templates", {
      key: other,
      body: { document: fontCard("unknown-font-card", FAMILY) },
    });
    expect(created.status).toBe(201);
    expect(warningsOf(created.body)).toEqual([["font_unknown", FAMILY]]);
    expect(created.body.warnings[0].message).toContain("fallback fonts");
    const updated = await api(t, "PUT", `/v1/templates/${created.body.id}`, {
      key: other,
      body: { document: fontCard("unknown-font-card", "Nobody's Grotesk") },
    });
    expect(warningsOf(updated.body)).toEqual([["font_unknown", "Nobody's Grotesk"]]);
    const published = await api(t, "POST", `/v1/templates/${created.body.id}/publish`, {
      key: other,
      body: {},
    });
    expect(published.status).toBe(200);
    expect(warningsOf(published.body)).toEqual([["font_unknown", "Nobody's Grotesk"]]);
    // The account that uploaded the family, and a shipped family: nothing to say.
    const own = await api(t, "POST", "/v1/templates", {
      key,
      body: { document: fontCard("own-font-card", FAMILY), publish: true },
    });
    expect(own.body.warnings).toEqual([]);
    const shipped = await api(t, "POST", "/v1/templates", {
      key: other,
      body: { document: fontCard("shipped-font-card", "Caveat"), publish: true },
    });
    expect(shipped.body.warnings).toEqual([]);
  });

  it("keeps one account's font away from another account's renders", async () => {
    const other = (await newAccount(t)).key;
    await publishTemplate(t, other, fontCard("brand-card", FAMILY));
    const res = await api(t, "POST", "/v1/renders", {
      key: other,
      body: { template: "brand-card", modifications: TITLE, wait: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.warnings.map((w: { code: string }) => w.code)).toContain("font_missing");
    const fallback = res.body.warnings.find((w: { code: string }) => w.code === "font_missing");
    expect(fallback.message).toContain(`"${FAMILY}"`);
  });

  it("refuses a font asset in an image slot before any charge", async () => {
    const font = await upload(t, key, WOFF2);
    await publishTemplate(t, key, testTemplate("with-photo"));
    const res = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "with-photo", modifications: [{ name: "photo", image_url: font.body.id }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.errors[0].path).toBe("modifications[0].image_url");
  });

  it("answers 422 font_invalid for a corrupt font and 400 for a font outside fonts/", async () => {
    const broken = await upload(t, key, WOFF2.subarray(0, 500), {}, "broken.woff2");
    expect(broken.status).toBe(422);
    expect(broken.body.error.code).toBe("font_invalid");
    expect(broken.body.error.message).toMatch(/Bad font file: the WOFF2 file is corrupt/);
    const misplaced = await upload(t, key, WOFF2, { folder: "brand" });
    expect(misplaced.status).toBe(400);
    expect(misplaced.body.error.errors[0].path).toBe("folder");
    const nested = await upload(t, key, WOFF2, { folder: "fonts/brand" });
    expect(nested.status).toBe(200); // same bytes as the first upload: the existing asset
  });
});
