import { CURRENT_VERSION } from "@pictor/engine";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, newAccount, startTestServer, type TestServer, testTemplate, untilFinished } from "./support.ts";

let t: TestServer;
let key: string;
beforeAll(async () => {
  t = await startTestServer({ examples: true });
  ({ key } = await newAccount(t, 1000));
});
afterAll(() => t?.close());

describe("starter templates", () => {
  it("a new account lists the example templates, published, and renders one out of the box", async () => {
    const list = await api(t, "GET", "/v1/templates", { key });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThanOrEqual(6);
    expect(list.body.next_cursor).toBeNull();
    for (const tpl of list.body.data)
      expect(tpl).toMatchObject({ status: "published", published_version: 1 });
    const og = list.body.data.find((x: { key: string }) => x.key === "blog-og-card");
    const res = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: og.key, modifications: [], wait: true },
    });
    expect(res.status).toBe(200);
    expect([res.body.width, res.body.height]).toEqual([og.frames[0].width, og.frames[0].height]);
  });

  it("paginates with limit and cursor", async () => {
    const first = await api(t, "GET", "/v1/templates?limit=2", { key });
    expect(first.body.data).toHaveLength(2);
    const second = await api(t, "GET", `/v1/templates?limit=2&cursor=${first.body.next_cursor}`, { key });
    expect(second.body.data[0].id > first.body.data[1].id).toBe(true);
    expect((await api(t, "GET", "/v1/templates?limit=0", { key })).body.error.code).toBe("invalid_request");
    expect((await api(t, "GET", "/v1/templates?limit=201", { key })).status).toBe(400);
    // A cursor that is no template id is refused, not read as "from the start".
    const garbage = await api(t, "GET", "/v1/templates?cursor=garbage", { key });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.errors[0].path).toBe("querystring.cursor");
    expect((await api(t, "GET", "/v1/batches?cursor=tpl_x", { key })).status).toBe(400);
  });
});

describe("template management", () => {
  it("create draft → read → update → publish → versions → duplicate → archive", async () => {
    const created = await api(t, "POST", "/v1/templates", {
      key,
      body: { document: testTemplate("managed") },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ key: "managed", status: "draft", published_version: null });
    expect(created.headers.get("location")).toBe(`/v1/templates/${created.body.id}`);
    const id = created.body.id;

    const byKey = await api(t, "GET", "/v1/templates/managed", { key });
    expect(byKey.body.id).toBe(id);
    expect(byKey.body.document.key).toBe("managed");
    const drafts = await api(t, "GET", "/v1/templates?include_drafts=true&limit=200", { key });
    expect(drafts.body.data.some((x: { id: string }) => x.id === id)).toBe(true);
    const published = await api(t, "GET", "/v1/templates?limit=200", { key });
    expect(published.body.data.some((x: { id: string }) => x.id === id)).toBe(false);

    const doc = testTemplate("managed");
    doc.name = "Renamed";
    const updated = await api(t, "PATCH", `/v1/templates/${id}`, { key, body: { document: doc } });
    expect(updated.body).toMatchObject({ name: "Renamed", status: "draft" });

    const pub = await api(t, "POST", `/v1/templates/${id}/publish`, { key });
    expect(pub.body).toMatchObject({ status: "published", published_version: 1 });
    await api(t, "POST", `/v1/templates/${id}/publish`, { key });
    const versions = await api(t, "GET", `/v1/templates/${id}/versions`, { key });
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(versions.body.next_cursor).toBeNull();
    const first = await api(t, "GET", `/v1/templates/${id}/versions?limit=1`, { key });
    expect(first.body.data.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(first.body.next_cursor).toBe("1");
    const second = await api(t, "GET", `/v1/templates/${id}/versions?limit=1&cursor=1`, { key });
    expect(second.body).toMatchObject({ data: [{ version: 2 }], next_cursor: null });
    for (const query of ["limit=201", "limit=0", "cursor=garbage", "cursor=0"]) {
      const bad = await api(t, "GET", `/v1/templates/${id}/versions?${query}`, { key });
      expect(bad.status, query).toBe(400);
      expect(bad.body.error.code).toBe("invalid_request");
    }

    const copy = await api(t, "POST", `/v1/templates/${id}/duplicate`, { key });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ key: "managed-copy", status: "draft" });
    const named = await api(t, "POST", `/v1/templates/${id}/duplicate?key=managed-two`, { key });
    expect(named.body.key).toBe("managed-two");

    const archived = await api(t, "POST", `/v1/templates/${id}/archive`, { key });
    expect(archived.body.status).toBe("archived");
    const render = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "managed", modifications: [] },
    });
    expect(render.body.error.code).toBe("template_not_published");
  });

  it("schema: the spec's name and type plus folder, default and frames", async () => {
    await api(t, "POST", "/v1/templates", {
      key,
      body: { document: testTemplate("schema-test"), publish: true },
    });
    const res = await api(t, "GET", "/v1/templates/schema-test/schema", { key });
    expect(res.status).toBe(200);
    expect(res.body.slots.map((s: { name: string; type: string }) => [s.name, s.type])).toEqual([
      ["title", "text"],
      ["bg", "color"],
      ["photo", "image"],
      ["logo", "image"],
    ]);
    expect(res.body.slots[3]).toMatchObject({ folder: "brand", frames: ["main"] });
  });

  it("schema: a rich text slot says so, and a slot only read by visible_when lists its frames", async () => {
    const document = testTemplate("schema-rich") as unknown as {
      slots: Record<string, unknown>[];
      frames: { layers: Record<string, unknown>[] }[];
    };
    document.slots.push({ name: "quote", type: "text", rich: true }, { name: "plan", type: "text" });
    document.frames[0]?.layers.push({
      id: "quote",
      type: "text",
      x: 0,
      y: 0,
      width: 100,
      height: 40,
      text: "<b>Hi</b>",
      font: { family: "Inter", size: 16 },
      color: "#000000",
      bind: { text: "quote" },
      visible_when: { slot: "plan", equals: "pro" },
    });
    await api(t, "POST", "/v1/templates", { key, body: { document, publish: true } });
    const res = await api(t, "GET", "/v1/templates/schema-rich/schema", { key });
    expect(res.status).toBe(200);
    const byName = new Map(res.body.slots.map((s: { name: string }) => [s.name, s]));
    expect(byName.get("quote")).toMatchObject({ type: "text", rich: true, frames: ["main"] });
    expect(byName.get("plan")).toMatchObject({ type: "text", frames: ["main"] });
  });

  it("an invalid document is 400 with JSON paths; a taken key is 400; unknown ids 404", async () => {
    const bad = testTemplate("bad-doc") as unknown as { frames: { width: unknown }[] };
    (bad.frames[0] as { width: unknown }).width = -5;
    const res = await api(t, "POST", "/v1/templates", { key, body: { document: bad } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.errors[0].path).toMatch(/^document\.frames\[0\]/);
    await api(t, "POST", "/v1/templates", { key, body: { document: testTemplate("taken") } });
    const dup = await api(t, "POST", "/v1/templates", { key, body: { document: testTemplate("taken") } });
    expect(dup.status).toBe(400);
    expect(dup.body.error.errors[0].path).toBe("document.key");
    for (const [method, path] of [
      ["GET", "/v1/templates/tpl_nope"],
      ["GET", "/v1/templates/tpl_nope/schema"],
      ["POST", "/v1/templates/tpl_nope/publish"],
    ] as const) {
      expect((await api(t, method, path, { key })).status).toBe(404);
    }
  });
});

describe("group nesting (docs: groups nest at most 32 deep)", () => {
  /** `depth` groups, one inside the other, around a shape with a gradient stroke (a deep leaf). */
  const nestedGroups = (depth: number) => {
    let layer: unknown = {
      id: "leaf",
      type: "shape",
      shape: "rectangle",
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      fill: "#FF0066",
      stroke: {
        width: 2,
        color: {
          type: "linear",
          stops: [
            { offset: 0, color: "#FF0066" },
            { offset: 1, color: "#2563EB" },
          ],
        },
      },
    };
    for (let i = depth; i >= 1; i--)
      layer = { id: `g${i}`, type: "group", x: 1, y: 1, width: 20, height: 20, layers: [layer] };
    const doc = testTemplate(`nested-${depth}`);
    (doc.frames[1] as { layers: unknown[] }).layers = [layer];
    return doc;
  };

  it("32 nested groups save, publish and render; 33 are 400 naming the limit and the path", async () => {
    const saved = await api(t, "POST", "/v1/templates", {
      key,
      body: { document: nestedGroups(32), publish: true },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const updated = await api(t, "PUT", `/v1/templates/${saved.body.id}`, {
      key,
      body: { document: nestedGroups(32) },
    });
    expect(updated.status).toBe(200);
    const rendered = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "nested-32", frame: "wide", modifications: [], wait: true },
    });
    expect(rendered.body.status).toBe("completed");

    const refused = await api(t, "POST", "/v1/templates", { key, body: { document: nestedGroups(33) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("invalid_request");
    const path = `document.frames[1]${".layers[0]".repeat(33)}`;
    expect(refused.body.error.errors).toEqual([
      { path, message: "groups are nested too deeply (at most 32 levels)" },
    ]);
    expect(refused.body.error.message).toBe(
      `The template document is not valid: ${path} groups are nested too deeply (at most 32 levels)`,
    );
  });
});

describe("versioning (spec section 9)", () => {
  it("adding a slot keeps old callers working; renders accepted before a publish keep their version", async () => {
    await api(t, "POST", "/v1/templates", {
      key,
      body: { document: testTemplate("versioned"), publish: true },
    });
    // Accept a batch on v1 and publish v2 before they can all have run.
    const before = await Promise.all(
      Array.from({ length: 4 }, () =>
        api(t, "POST", "/v1/renders", {
          key,
          body: { template: "versioned", modifications: [{ name: "title", text: "v1" }] },
        }),
      ),
    );
    const v2 = testTemplate("versioned", [{ name: "subtitle", type: "text", default: "new" }]);
    // v2 also widens the frame, so the pixels tell which version a render really used.
    (v2.frames[0] as { width: number }).width = 240;
    const pub = await api(t, "PUT", "/v1/templates/versioned", { key, body: { document: v2 } });
    expect(pub.status).toBe(200);
    expect((await api(t, "POST", "/v1/templates/versioned/publish", { key })).body.published_version).toBe(2);

    for (const r of before) {
      const done = await untilFinished(t, key, r.body.id);
      expect(done).toMatchObject({ status: "completed", template_version: 1, width: 200 });
      const meta = await sharp(Buffer.from(await (await fetch(done.asset_url)).arrayBuffer())).metadata();
      expect(meta.width).toBe(200);
    }
    const old = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "versioned", modifications: [{ name: "title", text: "old caller" }], wait: true },
    });
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ template_version: 2, width: 240 });
    const newSlot = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "versioned", modifications: [{ name: "subtitle", text: "hi" }], wait: true },
    });
    expect(newSlot.status).toBe(200);
  });

  it("a document stored by an older build is answered at the current version, as it draws", async () => {
    const created = await api(t, "POST", "/v1/templates", {
      key,
      body: { document: testTemplate("stored-old"), publish: true },
    });
    expect(created.status).toBe(201);
    const current = created.body.document;
    expect(current.version).toBe(CURRENT_VERSION);
    // What an older build would have left in the database: the document as written, version 1.
    const older = JSON.stringify(testTemplate("stored-old"));
    t.data.db.prepare("UPDATE templates SET draft = ? WHERE id = ?").run(older, created.body.id);
    t.data.db
      .prepare("UPDATE template_versions SET document = ? WHERE template_id = ?")
      .run(older, created.body.id);

    const read = await api(t, "GET", "/v1/templates/stored-old", { key });
    expect(read.body.document).toEqual(current);
    const versions = await api(t, "GET", "/v1/templates/stored-old/versions", { key });
    expect(versions.body.data[0].document).toEqual(current);
    // The bound background keeps drawing the slot's colour opaque, as version 1 drew it.
    expect(current.frames[0].bind_colors).toEqual({ background: { alpha: 1 } });
    const render = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "stored-old", modifications: [], wait: true },
    });
    expect(render.status).toBe(200);
  });
});
