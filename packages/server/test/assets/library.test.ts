import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAssetToken, newId } from "../../src/domain/ids.ts";
import {
  api,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  testTemplate,
  untilFinished,
} from "../api/support.ts";
import { pngBytes, upload } from "./support.ts";

let t: TestServer;
let key: string;
let otherKey: string;
beforeAll(async () => {
  t = await startTestServer();
  key = (await newAccount(t)).key;
  otherKey = (await newAccount(t)).key;
});
afterAll(() => t?.close());

describe("uploads", () => {
  it("stores a multipart image with its facts and serves it at its permanent asset_url", async () => {
    const png = await pngBytes(30, "#aa0000", 20);
    const res = await upload(
      t,
      key,
      png,
      { folder: "brand/logos/", tags: '["logo","red"]', metadata: '{"owner":"design"}' },
      "red logo.png",
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      folder: "brand/logos/",
      name: "red logo.png",
      content_type: "image/png",
      width: 30,
      height: 20,
      bytes: png.byteLength,
      tags: ["logo", "red"],
      metadata: { owner: "design" },
      font: null,
      render_id: null,
    });
    expect(res.body.id).toMatch(/^ast_/);
    expect(res.body.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(res.body.created_at)).not.toBeNaN();
    const file = await fetch(res.body.asset_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
    const got = await api(t, "GET", `/v1/assets/${res.body.id}`, { key });
    expect(got.body).toEqual(res.body);
  });

  it("stores identical bytes once per account: the second upload returns the first asset", async () => {
    const png = await pngBytes(31);
    const first = await upload(t, key, png, { folder: "a" });
    const again = await upload(t, key, png, { folder: "b", tags: "x" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const inB = await api(t, "POST", "/v1/assets/query", { key, body: { folder: "b" } });
    expect(inB.body.data).toEqual([]);
    // Another account's identical bytes are its own asset.
    const other = await upload(t, otherKey, png, { folder: "a" });
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
  });

  it("dedupes two identical uploads sent at the same time: one 201, one 200, one asset", async () => {
    const png = await pngBytes(34, "#445566");
    const both = await Promise.all([upload(t, key, png), upload(t, key, png)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(both[0]?.body.id).toBe(both[1]?.body.id);
  });

  it("defaults images to uploads/ and names them after the client's file", async () => {
    const res = await upload(t, key, await pngBytes(32), {}, "C:\\Users\\me\\photo.png");
    expect(res.body).toMatchObject({ folder: "uploads/", name: "photo.png" });
  });

  it("refuses SVG, non-images, truncated images and bad fields with typed errors naming the field", async () => {
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><image href="http://x/"/></svg>',
    );
    const refusedSvg = await upload(t, key, svg);
    expect(refusedSvg.status).toBe(422);
    expect(refusedSvg.body.error.code).toBe("image_invalid");
    expect(refusedSvg.body.error.message).toMatch(/SVG/);
    expect(refusedSvg.body.error.errors[0].path).toBe("file");

    const text = await upload(t, key, new TextEncoder().encode("just some text, not an image at all"));
    expect(text.body.error.code).toBe("image_invalid");

    const png = await pngBytes(64, "#123456");
    const truncated = await upload(t, key, png.subarray(0, png.length - 30));
    expect(truncated.status).toBe(422);
    expect(truncated.body.error.code).toBe("image_invalid");

    const badTags = await upload(t, key, await pngBytes(33), { tags: '["ok", 5]' });
    expect(badTags.status).toBe(400);
    expect(badTags.body.error.errors[0].path).toBe("tags");
    const badFolder = await upload(t, key, await pngBytes(33), { folder: "a/../b" });
    expect(badFolder.body.error.errors[0].path).toBe("folder");
    const badMeta = await upload(t, key, await pngBytes(33), { metadata: '{"n": 1}' });
    expect(badMeta.body.error.errors[0].path).toBe("metadata");
  });

  it("applies the fetched-image limits: 413 over 25 MiB, 422 over 50 megapixels", async () => {
    const huge = new Uint8Array(25 * 1024 * 1024 + 1);
    huge.set(await pngBytes(8));
    const tooBig = await upload(t, key, huge);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.code).toBe("payload_too_large");
    // 8000 x 7000 of one colour: a small file, but 56 megapixels.
    const wide = await pngBytes(8000, "#ffffff", 7000);
    const tooMany = await upload(t, key, wide);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.code).toBe("image_invalid");
    expect(tooMany.body.error.message).toMatch(/megapixel/);
  });

  it("answers 415 to a JSON body and 400 to a form without a file", async () => {
    const json = await api(t, "POST", "/v1/assets", { key, body: { url: "http://example.com/x.png" } });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.append("folder", "x");
    const res = await fetch(`${t.url}/v1/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.errors[0].path).toBe("file");
  });

  it("answers 400 to a multipart body that is cut short or has a malformed part header", async () => {
    const head = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n';
    for (const body of [
      `${head}Content-Type:`,
      `${head}\r\nbytes`,
      "--b\r\nno header at all\r\n\r\nx\r\n--b--",
    ]) {
      const res = await fetch(`${t.url}/v1/assets`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "multipart/form-data; boundary=b" },
        body,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_request");
    }
  });

  it("imports from a URL through the SSRF guard", async () => {
    const res = await api(t, "POST", "/v1/assets/import", {
      key,
      body: { url: t.images.url("/photo.png"), folder: "imported", tags: ["web"] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      folder: "imported/",
      name: "photo.png",
      width: 64,
      height: 64,
      tags: ["web"],
    });
    const blocked = await api(t, "POST", "/v1/assets/import", {
      key,
      body: { url: "http://169.254.169.254/latest" },
    });
    expect(blocked.status).toBe(422);
    expect(blocked.body.error.code).toBe("image_fetch_failed");
    const missing = await api(t, "POST", "/v1/assets/import", {
      key,
      body: { url: t.images.url("/nope.png") },
    });
    expect(missing.body.error.code).toBe("image_fetch_failed");
    const garbage = await api(t, "POST", "/v1/assets/import", {
      key,
      body: { url: t.images.url("/garbage") },
    });
    expect(garbage.body.error.code).toBe("image_invalid");
  });
});

describe("patch, delete, isolation", () => {
  it("PATCH moves, renames, replaces tags and merges metadata (null removes a key); query follows", async () => {
    const up = await upload(t, key, await pngBytes(40), {
      folder: "drafts",
      tags: "a,b",
      metadata: '{"keep":"1","drop":"2"}',
    });
    const id = up.body.id;
    const res = await api(t, "PATCH", `/v1/assets/${id}`, {
      key,
      body: { folder: "final/hero", name: "hero.png", tags: ["c"], metadata: { drop: null, added: "3" } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      folder: "final/hero/",
      name: "hero.png",
      tags: ["c"],
      metadata: { keep: "1", added: "3" },
      asset_url: up.body.asset_url,
    });
    const byOldTag = await api(t, "POST", "/v1/assets/query", {
      key,
      body: { tags: ["a"], folder: "drafts" },
    });
    expect(byOldTag.body.data).toEqual([]);
    const byNew = await api(t, "POST", "/v1/assets/query", {
      key,
      body: { tags: ["c"], metadata: { added: "3" }, folder: "final", recursive: true },
    });
    expect(byNew.body.data.map((a: { id: string }) => a.id)).toEqual([id]);
    const dropped = await api(t, "POST", "/v1/assets/query", { key, body: { metadata: { drop: "2" } } });
    expect(dropped.body.data).toEqual([]);

    const empty = await api(t, "PATCH", `/v1/assets/${id}`, { key, body: {} });
    expect(empty.status).toBe(400);
    const badFolder = await api(t, "PATCH", `/v1/assets/${id}`, { key, body: { folder: "x//.." } });
    expect(badFolder.body.error.errors[0].path).toBe("folder");
  });

  it("PATCH and upload store a name alike: last path segment, no control or bidi characters", async () => {
    const cases: [given: string, stored: string][] = [
      ["line\r\nbreak.png", "linebreak.png"],
      ["../../../etc/passwd", "passwd"],
      ["C:\\Users\\me\\logo.png", "logo.png"],
      ["nul\u0000byte.png", "nulbyte.png"],
      ["invoice\u202Egnp.exe", "invoicegnp.exe"],
      [" \u2066isolated.png\u2069\u200F ", "isolated.png"],
      ["<b>bold</b>.png", "b>.png"],
      ["esc\u001b[31m\u0085red\u2028.png", "esc[31mred.png"],
      ["ok name.png", "ok name.png"],
      ["lone\ud800.png", "lone\ufffd.png"],
      [`${"é".repeat(150)}${"😀".repeat(50)}`, `${"é".repeat(150)}${"😀".repeat(50)}`],
    ];
    const up = await upload(t, key, await pngBytes(47));
    for (const [i, [given, stored]] of cases.entries()) {
      const patched = await api(t, "PATCH", `/v1/assets/${up.body.id}`, { key, body: { name: given } });
      expect(patched.status, JSON.stringify(given)).toBe(200);
      expect(patched.body.name, JSON.stringify(given)).toBe(stored);
      const uploaded = await upload(t, key, await pngBytes(48 + i), { name: given });
      expect(uploaded.body.name, JSON.stringify(given)).toBe(stored);
    }
    // 200 characters at most: an upload's file name is cut (never inside a character), a PATCH refused.
    const long = `${"é".repeat(151)}${"😀".repeat(60)}`;
    const cut = await upload(t, key, await pngBytes(59), { name: long });
    expect(cut.body.name).toBe(`${"é".repeat(151)}${"😀".repeat(49)}`);
    const tooLong = await api(t, "PATCH", `/v1/assets/${up.body.id}`, { key, body: { name: long } });
    expect(tooLong.status).toBe(400);
    for (const nothing of ["..", "a/", "\u0000\r\n", "\u202E"]) {
      const patched = await api(t, "PATCH", `/v1/assets/${up.body.id}`, { key, body: { name: nothing } });
      expect(patched.status, JSON.stringify(nothing)).toBe(400);
      expect(patched.body.error.errors[0].path).toBe("name");
      // An upload falls back to a name of its own, as with no name at all.
      const uploaded = await upload(t, key, await pngBytes(60, "#123456"), { name: nothing });
      expect(uploaded.body.name).toMatch(/^[0-9a-f]{12}\.png$/);
    }
  });

  it("DELETE removes the asset, its asset_url and its index rows", async () => {
    const up = await upload(t, key, await pngBytes(41), { tags: "doomed" });
    const del = await api(t, "DELETE", `/v1/assets/${up.body.id}`, { key });
    expect(del.status).toBe(204);
    expect((await api(t, "GET", `/v1/assets/${up.body.id}`, { key })).status).toBe(404);
    expect((await fetch(up.body.asset_url)).status).toBe(404);
    const q = await api(t, "POST", "/v1/assets/query", { key, body: { tags: ["doomed"] } });
    expect(q.body.data).toEqual([]);
    expect((await api(t, "DELETE", `/v1/assets/${up.body.id}`, { key })).status).toBe(404);
    // Deleted bytes may be uploaded again: a new asset.
    const again = await upload(t, key, await pngBytes(41));
    expect(again.status).toBe(201);
  });

  it("DELETE removes the bytes from the blob store once no other record names them", async () => {
    const { accountId, key: own } = await newAccount(t);
    const png = await pngBytes(43);
    const up = await upload(t, own, png);
    const record = await t.data.assets.get(accountId, up.body.id);
    if (!record) throw new Error("uploaded asset has no record");
    expect(await t.data.blobs.get(record.blobKey)).toEqual(png);
    // A second record naming the same key (as shared bytes would) keeps the bytes alive.
    const twin = { ...record, id: newId("ast"), token: newAssetToken() };
    await t.data.assets.insert(twin);
    expect((await api(t, "DELETE", `/v1/assets/${up.body.id}`, { key: own })).status).toBe(204);
    expect(await t.data.blobs.get(record.blobKey)).toEqual(png);
    expect((await api(t, "DELETE", `/v1/assets/${twin.id}`, { key: own })).status).toBe(204);
    expect(await t.data.blobs.get(record.blobKey)).toBeNull();
    expect((await fetch(up.body.asset_url)).status).toBe(404);
    // The same bytes uploaded again are stored again.
    const again = await upload(t, own, png);
    expect(again.status).toBe(201);
    expect(new Uint8Array(await (await fetch(again.body.asset_url)).arrayBuffer())).toEqual(png);
  });

  it("another account's asset is 404 for GET, PATCH and DELETE, and absent from its queries", async () => {
    const up = await upload(t, key, await pngBytes(42), { tags: "private" });
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "mine now" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await api(t, method, `/v1/assets/${up.body.id}`, {
        key: otherKey,
        ...(body ? { body } : {}),
      });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    const q = await api(t, "POST", "/v1/assets/query", { key: otherKey, body: { tags: ["private"] } });
    expect(q.body.data).toEqual([]);
    expect((await api(t, "GET", `/v1/assets/${up.body.id}`, { key })).status).toBe(200);
  });
});

describe("render outputs", () => {
  it("land in renders/<template key>/ with the request's metadata and tags, and query finds them", async () => {
    await publishTemplate(t, key, testTemplate("promo"));
    const res = await api(t, "POST", "/v1/renders", {
      key,
      body: {
        template: "promo",
        modifications: [{ name: "title", text: "Spring" }],
        metadata: { campaign: "spring", locale: "en" },
        tags: ["social", "story"],
        wait: true,
      },
    });
    expect(res.status).toBe(200);
    const other = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "promo", modifications: [], metadata: { campaign: "summer" } },
    });
    await untilFinished(t, key, other.body.id);

    const found = await api(t, "POST", "/v1/assets/query", {
      key,
      body: { metadata: { campaign: "spring" }, tags: ["social"] },
    });
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0]).toMatchObject({
      id: res.body.asset_id,
      folder: "renders/promo/",
      content_type: "image/png",
      render_id: res.body.id,
      metadata: { campaign: "spring", locale: "en" },
      tags: ["social", "story"],
      asset_url: res.body.asset_url,
    });
    const folder = await api(t, "POST", "/v1/assets/query", {
      key,
      body: { folder: "renders", recursive: true },
    });
    expect(folder.body.data.map((a: { render_id: string }) => a.render_id).sort()).toEqual(
      [res.body.id, other.body.id].sort(),
    );
    const otherAccount = await api(t, "POST", "/v1/assets/query", {
      key: otherKey,
      body: { metadata: { campaign: "spring" } },
    });
    expect(otherAccount.body.data).toEqual([]);
  });

  it("record the sha256 of the bytes served at their asset_url; identical renders are separate assets", async () => {
    await publishTemplate(t, key, testTemplate("hashed"));
    const body = { template: "hashed", modifications: [{ name: "title", text: "Hash me" }], wait: true };
    const first = await api(t, "POST", "/v1/renders", { key, body });
    const second = await api(t, "POST", "/v1/renders", { key, body });
    expect([first.status, second.status]).toEqual([200, 200]);
    const served = new Uint8Array(await (await fetch(first.body.asset_url)).arrayBuffer());
    const sha256 = createHash("sha256").update(served).digest("hex");
    const asset = await api(t, "GET", `/v1/assets/${first.body.asset_id}`, { key });
    expect(asset.body).toMatchObject({ sha256, render_id: first.body.id, bytes: served.byteLength });
    const twin = await api(t, "GET", `/v1/assets/${second.body.asset_id}`, { key });
    expect(twin.body.id).not.toBe(asset.body.id);
    expect(twin.body.sha256).toBe(sha256);
  });

  it("deleted, leave the blob store; the render keeps its record", async () => {
    const { accountId, key: own } = await newAccount(t);
    await publishTemplate(t, own, testTemplate("short-lived"));
    const body = { template: "short-lived", modifications: [], wait: true };
    const render = await api(t, "POST", "/v1/renders", { key: own, body });
    const record = await t.data.assets.get(accountId, render.body.asset_id);
    if (!record) throw new Error("render output has no asset record");
    expect(await t.data.blobs.get(record.blobKey)).not.toBeNull();
    expect((await api(t, "DELETE", `/v1/assets/${render.body.asset_id}`, { key: own })).status).toBe(204);
    expect(await t.data.blobs.get(record.blobKey)).toBeNull();
    expect((await fetch(render.body.asset_url)).status).toBe(404);
    expect((await api(t, "GET", `/v1/renders/${render.body.id}`, { key: own })).body).toMatchObject({
      status: "completed",
      asset_id: null,
    });
  });
});
