import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAssetToken, newId } from "../../src/domain/ids.ts";
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
} from "./support.ts";

let t: TestServer;
let a: { key: string; accountId: string };
let b: { key: string; accountId: string };
let bRender: string;
let bTemplate: string;

beforeAll(async () => {
  t = await startTestServer();
  a = await newAccount(t);
  b = await newAccount(t);
  bTemplate = (await publishTemplate(t, b.key)).id;
  bRender = (
    await api(t, "POST", "/v1/renders", {
      key: b.key,
      body: { template: "test-card", modifications: [], wait: true },
    })
  ).body.id;
});
afterAll(() => t?.close());

describe("authentication", () => {
  it("missing, malformed, unknown and revoked keys all get the identical 401", async () => {
    const created = await api(t, "POST", "/v1/keys", { key: a.key, body: { name: "to revoke" } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^sk_live_/);
    expect((await api(t, "DELETE", `/v1/keys/${created.body.id}`, { key: a.key })).status).toBe(200);

    const variants: Record<string, string>[] = [
      {},
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: "Bearer" },
      { authorization: "Bearer " },
      { authorization: `Bearer sk_live_${"A".repeat(43)}` },
      { authorization: `Bearer ${a.key}x` },
      { authorization: `Bearer ${created.body.key}` },
      { authorization: `bearer ${a.key} extra` },
    ];
    const bodies = new Set<string>();
    for (const headers of variants) {
      for (const [method, path] of [
        ["GET", "/v1/templates"],
        ["GET", `/v1/renders/${bRender}`],
        ["POST", "/v1/renders"],
      ] as const) {
        const res = await api(t, method, path, {
          headers,
          ...(method === "POST" ? { body: { junk: true } } : {}),
        });
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe("Bearer");
        const { request_id, ...rest } = res.body.error;
        expect(request_id).toBe(res.headers.get("x-request-id"));
        bodies.add(JSON.stringify(rest));
      }
    }
    expect([...bodies]).toHaveLength(1);
    expect(JSON.parse([...bodies][0] as string).code).toBe("unauthorized");
  });

  it("keys are stored only as SHA-256 hashes, and a key list shows prefixes only", async () => {
    const rows = t.data.db.prepare("SELECT * FROM api_keys").all();
    const dump = JSON.stringify(rows, (_k, v) =>
      v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v,
    );
    expect(dump).not.toContain(a.key);
    expect(dump).not.toContain(a.key.slice(8));
    const list = await api(t, "GET", "/v1/keys", { key: a.key });
    expect(JSON.stringify(list.body)).not.toContain(a.key.slice(12));
    expect(list.body.data[0].prefix).toBe(a.key.slice(0, 12));
  });
});

describe("isolation: another account's ids are 404, never 403", () => {
  it.each([
    ["GET", () => `/v1/renders/${bRender}`],
    ["GET", () => `/v1/templates/${bTemplate}`],
    ["GET", () => `/v1/templates/${bTemplate}/schema`],
    ["GET", () => `/v1/templates/${bTemplate}/versions`],
    ["POST", () => `/v1/templates/${bTemplate}/publish`],
    ["POST", () => `/v1/templates/${bTemplate}/archive`],
    ["POST", () => `/v1/templates/${bTemplate}/duplicate`],
    ["PUT", () => `/v1/templates/${bTemplate}`],
  ] as const)("%s %s", async (method, path) => {
    const res = await api(t, method, path(), {
      key: a.key,
      ...(method === "PUT" ? { body: { document: { version: 1 } } } : {}),
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("B's template cannot be rendered by A, and B's key cannot be revoked by A", async () => {
    const res = await api(t, "POST", "/v1/renders", {
      key: a.key,
      body: { template: bTemplate, modifications: [] },
    });
    expect(res.status).toBe(404);
    const bKeys = await api(t, "GET", "/v1/keys", { key: b.key });
    const revoke = await api(t, "DELETE", `/v1/keys/${bKeys.body.data[0].id}`, { key: a.key });
    expect(revoke.status).toBe(404);
    expect((await api(t, "GET", "/v1/account", { key: b.key })).status).toBe(200);
  });

  it("GET /v1/webhook-secret returns only the caller's secret, not cached", async () => {
    const sa = await api(t, "GET", "/v1/webhook-secret", { key: a.key });
    const sb = await api(t, "GET", "/v1/webhook-secret", { key: b.key });
    expect(sa.body.secret).toMatch(/^whsec_/);
    expect(sa.body.secret).not.toBe(sb.body.secret);
    expect(sa.headers.get("cache-control")).toBe("no-store");
  });
});

describe("assets named by a template", () => {
  /** The test card whose photo layer shows `src` when no photo is given. */
  const withPhoto = (key: string, src: string) => {
    const doc = testTemplate(key);
    const layer = doc.frames[0]?.layers[0] as { id: string; src: string };
    expect(layer.id).toBe("photo");
    layer.src = src;
    return doc;
  };

  it("a document naming another account's asset is refused on save; the owner may name it", async () => {
    const mine = await insertAsset(t, a.accountId, "brand/", await logoPng());
    const own = await api(t, "POST", "/v1/templates", {
      key: a.key,
      body: { document: withPhoto("own-photo", `asset://${mine.id}`), publish: true },
    });
    expect(own.status).toBe(201);
    const rendered = await api(t, "POST", "/v1/renders", {
      key: a.key,
      body: { template: "own-photo", modifications: [], wait: true },
    });
    expect(rendered.body.status).toBe("completed");

    const stolen = await api(t, "POST", "/v1/templates", {
      key: b.key,
      body: { document: withPhoto("steal", `asset://${mine.id}`), publish: true },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toMatchObject({
      code: "invalid_request",
      errors: [{ path: "document.frames[0].layers[0].src", message: "Unknown asset id." }],
    });
    const patched = await api(t, "PATCH", `/v1/templates/${bTemplate}`, {
      key: b.key,
      body: { document: withPhoto("test-card", `asset://${mine.id}`) },
    });
    expect(patched.status).toBe(400);
  });

  /** The test card whose `photo` image slot has `fields` (a `default`), and the given `sample`. */
  const photoSlot = (key: string, fields: Record<string, string>, sample?: Record<string, string>) => {
    const doc = testTemplate(key) as ReturnType<typeof testTemplate> & { sample?: Record<string, string> };
    const slot = doc.slots[2] as Record<string, string>;
    expect(slot.name).toBe("photo");
    Object.assign(slot, fields);
    if (sample) doc.sample = sample;
    return doc;
  };

  it("an image slot's default given as a bare asset id is stored as asset://, so it renders", async () => {
    const mine = await insertAsset(t, a.accountId, "brand/", await logoPng());
    const saved = await api(t, "POST", "/v1/templates", {
      key: a.key,
      body: { document: photoSlot("bare-default", { default: mine.id }, { photo: mine.id }), publish: true },
    });
    expect(saved.status).toBe(201);
    expect(saved.body.document.slots[2].default).toBe(`asset://${mine.id}`);
    expect(saved.body.document.sample).toEqual({ photo: `asset://${mine.id}` });
    const rendered = await api(t, "POST", "/v1/renders", {
      key: a.key,
      body: { template: "bare-default", modifications: [], wait: true },
    });
    expect(rendered.status).toBe(200);
    expect(rendered.body.status).toBe("completed");
    expect(rendered.body.warnings).toContainEqual(
      expect.objectContaining({ code: "slot_default_used", slot: "photo" }),
    );
  });

  it("another account's asset id in an image slot's default or sample is 400 naming the slot", async () => {
    const mine = await insertAsset(t, a.accountId, "brand/", await logoPng());
    const cases = [
      [photoSlot("steal-default", { default: mine.id }), "document.slots[2].default", "default"],
      [photoSlot("steal-ref", { default: `asset://${mine.id}` }), "document.slots[2].default", "default"],
      [photoSlot("steal-sample", {}, { photo: mine.id }), "document.sample.photo", "sample value"],
      [photoSlot("no-such", { default: "ast_doesnotexist" }), "document.slots[2].default", "default"],
    ] as const;
    for (const [document, path, what] of cases) {
      const res = await api(t, "POST", "/v1/templates", { key: b.key, body: { document, publish: true } });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.message).toMatch(new RegExp(`^Slot 'photo': its ${what} names asset 'ast_`));
      expect(res.body.error.errors).toEqual([{ path, message: "Unknown asset id for slot 'photo'." }]);
      const patched = await api(t, "PUT", `/v1/templates/${bTemplate}`, { key: b.key, body: { document } });
      expect(patched.status).toBe(400);
      expect(patched.body.error.errors[0].path).toBe(path);
    }
  });

  it("an image slot's default naming a font asset is 400 naming the slot", async () => {
    const image = await insertAsset(t, a.accountId, "fonts/", await logoPng());
    const record = await t.data.assets.get(a.accountId, image.id);
    if (!record) throw new Error("asset missing");
    const fontId = newId("ast");
    await t.data.assets.insert({ ...record, id: fontId, token: newAssetToken(), contentType: "font/ttf" });
    const res = await api(t, "POST", "/v1/templates", {
      key: a.key,
      body: { document: photoSlot("font-default", { default: fontId }) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      `Slot 'photo': its default names asset '${fontId}', a font/ttf file, not an image.`,
    );
  });

  it("publishing a draft stored before the check maps a bare asset id and refuses another account's", async () => {
    const mine = await insertAsset(t, a.accountId, "brand/", await logoPng());
    const at = new Date().toISOString();
    const stored = async (accountId: string, key: string) => {
      const id = newId("tpl");
      await t.data.templates.insert({
        id,
        accountId,
        key,
        name: "Stored",
        draft: photoSlot(key, { default: mine.id }) as never,
        publishedVersion: null,
        archivedAt: null,
        createdAt: at,
        updatedAt: at,
      });
      return id;
    };
    const own = await stored(a.accountId, "stored-bare");
    const published = await api(t, "POST", `/v1/templates/${own}/publish`, { key: a.key });
    expect(published.status).toBe(200);
    expect(published.body.document.slots[2].default).toBe(`asset://${mine.id}`);
    const rendered = await api(t, "POST", "/v1/renders", {
      key: a.key,
      body: { template: "stored-bare", modifications: [], wait: true },
    });
    expect(rendered.body.status).toBe("completed");

    const theirs = await stored(b.accountId, "stored-bare-steal");
    const refused = await api(t, "POST", `/v1/templates/${theirs}/publish`, { key: b.key });
    expect(refused.status).toBe(400);
    expect(refused.body.error.errors).toEqual([
      { path: "document.slots[2].default", message: "Unknown asset id for slot 'photo'." },
    ]);
    expect(
      (await api(t, "GET", `/v1/templates/${theirs}`, { key: b.key })).body.published_version,
    ).toBeNull();
  });

  it("a render resolves asset ids only within its own account, even for a document stored before the check", async () => {
    const mine = await insertAsset(t, a.accountId, "brand/", await logoPng());
    // Stored directly, as a template saved before documents were checked could be.
    const at = new Date().toISOString();
    const id = newId("tpl");
    const document = withPhoto("stored-steal", `asset://${mine.id}`) as never;
    await t.data.templates.insert({
      id,
      accountId: b.accountId,
      key: "stored-steal",
      name: "Stored",
      draft: document,
      publishedVersion: null,
      archivedAt: null,
      createdAt: at,
      updatedAt: at,
    });
    await t.data.templates.publish(b.accountId, id, at);
    const before = await balanceOf(t, b.key);
    const res = await api(t, "POST", "/v1/renders", {
      key: b.key,
      body: { template: "stored-steal", modifications: [], wait: true },
    });
    // Refused at acceptance (the account has no such asset), so nothing is charged, not even refunded.
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "image_fetch_failed", asset_id: mine.id });
    expect(res.body.error.render_id).toBeUndefined();
    expect(await balanceOf(t, b.key)).toBe(before);
  });
});
