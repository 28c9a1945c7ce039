import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/domain/ids.ts";
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
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "image_fetch_failed", credits_refunded: 1 });
    expect(await balanceOf(t, b.key)).toBe(before);
  });
});
