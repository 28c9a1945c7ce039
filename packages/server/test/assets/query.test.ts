import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everyAssetQueryPlan } from "../../src/adapters/sqlite/asset-query.ts";
import { toAsset } from "../../src/adapters/sqlite/asset-store.ts";
import { type AssetQueryBody, parseAssetQuery } from "../../src/domain/assets/query-request.ts";
import { newAssetToken, newId } from "../../src/domain/ids.ts";
import { api, newAccount, startTestServer, type TestServer } from "../api/support.ts";

let t: TestServer;
let key: string;
let accountId: string;
let otherKey: string;
/** name -> id of the seeded assets */
const ids = new Map<string, string>();

interface Seed {
  name: string;
  folder: string;
  tags?: string[];
  metadata?: Record<string, string>;
  contentType?: string;
  createdAt: string;
}

// Nine assets with controlled timestamps, written through the library port (the only way to pin
// created_at); everything below is read back over HTTP.
const SEEDS: Seed[] = [
  { name: "logo-red", folder: "brand/logos/", tags: ["logo", "red"], createdAt: "2026-01-01T00:00:00.000Z" },
  {
    name: "logo-blue",
    folder: "brand/logos/",
    tags: ["logo", "blue"],
    createdAt: "2026-01-02T00:00:00.000Z",
  },
  {
    name: "logo-old",
    folder: "brand/logos/old/",
    tags: ["logo", "red", "archived"],
    createdAt: "2026-01-03T00:00:00.000Z",
  },
  {
    name: "brandbook",
    folder: "brand/",
    tags: ["guide"],
    contentType: "image/jpeg",
    createdAt: "2026-01-04T00:00:00.000Z",
  },
  { name: "brand-other", folder: "brandx/", tags: ["logo"], createdAt: "2026-01-05T00:00:00.000Z" },
  {
    name: "spring-1",
    folder: "renders/promo/",
    tags: ["social"],
    metadata: { campaign: "spring", locale: "en" },
    createdAt: "2026-02-01T00:00:00.000Z",
  },
  {
    name: "spring-2",
    folder: "renders/promo/",
    tags: ["social", "story"],
    metadata: { campaign: "spring", locale: "de" },
    contentType: "image/webp",
    createdAt: "2026-02-02T00:00:00.000Z",
  },
  {
    name: "summer-1",
    folder: "renders/promo/",
    tags: ["social"],
    metadata: { campaign: "summer", locale: "en" },
    createdAt: "2026-02-03T00:00:00.000Z",
  },
  { name: "root-file", folder: "", createdAt: "2026-03-01T00:00:00.000Z" },
];

beforeAll(async () => {
  t = await startTestServer();
  const a = await newAccount(t);
  key = a.key;
  accountId = a.accountId;
  otherKey = (await newAccount(t)).key;
  for (const s of SEEDS) {
    const id = newId("ast");
    ids.set(s.name, id);
    await t.data.assetLibrary.insert(
      {
        id,
        accountId: a.accountId,
        folder: s.folder,
        name: s.name,
        contentType: s.contentType ?? "image/png",
        byteSize: 100,
        width: 10,
        height: 10,
        blobKey: `assets/${id}`,
        token: newAssetToken(),
        etag: `"${id}"`,
        metadata: s.metadata ?? {},
        tags: s.tags ?? [],
        renderId: null,
        createdAt: s.createdAt,
      },
      { sha256: randomBytes(32).toString("hex"), font: null },
    );
  }
});
afterAll(() => t?.close());

/** New accounts also hold their starter templates' images (created now): seeds are all before this. */
const SEEDED = { lt: "2026-06-01T00:00:00Z" };

async function names(body: unknown, k = key): Promise<string[]> {
  const res = await api(t, "POST", "/v1/assets/query", { key: k, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((a: { name: string }) => a.name);
}

describe("POST /v1/assets/query", () => {
  it("with no filter lists every asset of the account, newest first", async () => {
    expect(await names({ created: SEEDED })).toEqual([...SEEDS].reverse().map((s) => s.name));
  });

  it("tags: a bare array and {all} need every tag; {any} needs one", async () => {
    expect(await names({ tags: ["logo", "red"] })).toEqual(["logo-old", "logo-red"]);
    expect(await names({ tags: { all: ["logo", "red"] } })).toEqual(["logo-old", "logo-red"]);
    expect(await names({ tags: { any: ["blue", "guide"] } })).toEqual(["brandbook", "logo-blue"]);
    expect(await names({ tags: { all: ["logo"], any: ["blue", "archived"] } })).toEqual([
      "logo-old",
      "logo-blue",
    ]);
    expect(await names({ tags: ["nope"] })).toEqual([]);
  });

  it("metadata: every given key must equal its value", async () => {
    expect(await names({ metadata: { campaign: "spring" } })).toEqual(["spring-2", "spring-1"]);
    expect(await names({ metadata: { campaign: "spring", locale: "en" } })).toEqual(["spring-1"]);
    expect(await names({ metadata: { campaign: "spring", locale: "fr" } })).toEqual([]);
  });

  it("folder: exactly that folder by default, with subfolders when recursive (never a sibling prefix)", async () => {
    expect(await names({ folder: "brand/logos" })).toEqual(["logo-blue", "logo-red"]);
    expect(await names({ folder: "/brand/logos/" })).toEqual(["logo-blue", "logo-red"]);
    expect(await names({ folder: "brand", recursive: true })).toEqual([
      "brandbook",
      "logo-old",
      "logo-blue",
      "logo-red",
    ]);
    expect(await names({ folder: "" })).toEqual(["root-file"]);
  });

  it("content_type: one type or a list", async () => {
    expect(await names({ content_type: "image/jpeg", created: SEEDED })).toEqual(["brandbook"]);
    expect(await names({ content_type: ["image/jpeg", "image/webp"], created: SEEDED })).toEqual([
      "spring-2",
      "brandbook",
    ]);
  });

  it("created: gt/gte/lt/lte bounds, any ISO-8601 form", async () => {
    expect(await names({ created: { gte: "2026-02-01T00:00:00Z", lt: "2026-02-03T00:00:00Z" } })).toEqual([
      "spring-2",
      "spring-1",
    ]);
    expect(
      await names({ created: { gt: "2026-02-01T00:00:00Z", lte: "2026-02-03T00:00:00+00:00" } }),
    ).toEqual(["summer-1", "spring-2"]);
  });

  it("combines every filter with AND", async () => {
    expect(
      await names({
        tags: { all: ["social"], any: ["story", "nothing"] },
        metadata: { campaign: "spring" },
        folder: "renders",
        recursive: true,
        content_type: "image/webp",
        created: { gte: "2026-02-02T00:00:00Z" },
      }),
    ).toEqual(["spring-2"]);
    expect(
      await names({
        tags: ["logo"],
        folder: "brand",
        recursive: true,
        created: { lt: "2026-01-03T00:00:00Z" },
      }),
    ).toEqual(["logo-blue", "logo-red"]);
  });

  it("paginates with next_cursor until null, without repeats or gaps", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await api(t, "POST", "/v1/assets/query", {
        key,
        body: { limit: 2, created: SEEDED, ...(cursor ? { cursor } : {}) },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((a: { name: string }) => a.name));
      if (res.body.next_cursor === null) break;
      cursor = res.body.next_cursor;
    }
    expect(seen).toEqual([...SEEDS].reverse().map((s) => s.name));
  });

  it("is scoped to the caller's account", async () => {
    expect(await names({ created: SEEDED }, otherKey)).toEqual([]);
    const everything = await names({ limit: 200 }, otherKey);
    expect(everything.filter((n) => SEEDS.some((s) => s.name === n))).toEqual([]);
    expect(await names({ tags: ["logo"] }, otherKey)).toEqual([]);
  });

  it("answers 400 naming the field for bad filters", async () => {
    const bad = async (body: unknown) => (await api(t, "POST", "/v1/assets/query", { key, body })).body.error;
    expect((await bad({ created: { gte: "yesterday" } })).errors[0].path).toBe("created.gte");
    expect((await bad({ cursor: "garbage" })).errors[0].path).toBe("cursor");
    expect((await bad({ folder: "../etc" })).errors[0].path).toBe("folder");
    expect((await bad({ limit: 500 })).code).toBe("invalid_request");
    expect((await bad({ tags: { every: ["x"] } })).code).toBe("invalid_request");
  });

  it("GET /v1/assets lists one folder, recursive on request, with the same cursor", async () => {
    const list = async (qs: string) =>
      (await api(t, "GET", `/v1/assets?${qs}`, { key })).body.data.map((a: { name: string }) => a.name);
    expect(await list("folder=brand/logos")).toEqual(["logo-blue", "logo-red"]);
    expect(await list("folder=brand&recursive=true")).toEqual([
      "brandbook",
      "logo-old",
      "logo-blue",
      "logo-red",
    ]);
    const first = await api(t, "GET", "/v1/assets?folder=brand&recursive=true&limit=3", { key });
    const next = `/v1/assets?folder=brand&recursive=true&limit=3&cursor=${first.body.next_cursor}`;
    const second = await api(t, "GET", next, { key });
    expect(second.body.data.map((a: { name: string }) => a.name)).toEqual(["logo-red"]);
    expect(second.body.next_cursor).toBeNull();
  });
});

describe("query plans", () => {
  // The planner picks one driver by estimated cost; with nine assets that is nearly always the
  // created_at scan. Every other driver must return the same rows in the same order, page by page.
  const shapes: AssetQueryBody[] = [
    { tags: ["logo", "red"], created: SEEDED },
    { tags: { all: ["logo"], any: ["blue", "archived"] } },
    { tags: { any: ["social", "guide"] }, content_type: ["image/png", "image/webp"] },
    { metadata: { campaign: "spring" }, tags: ["social"], folder: "renders/promo" },
    {
      metadata: { locale: "en" },
      folder: "renders",
      recursive: true,
      created: { gte: "2026-02-01T00:00:00Z" },
    },
    { folder: "brand", recursive: true, tags: ["logo"] },
    { folder: "brand/logos", limit: 1 },
  ];

  it.each(shapes.map((s) => [JSON.stringify(s), s] as const))("every driver agrees: %s", (_name, body) => {
    const parsed = parseAssetQuery({ limit: 2, ...body });
    if (!parsed.ok) throw new Error(parsed.message);
    const q = parsed.value;
    const pages = (run: (cursor: typeof q.cursor) => { driver: string; text: string; params: unknown[] }) => {
      const ids: string[] = [];
      let cursor: typeof q.cursor = null;
      for (let i = 0; i < 20; i++) {
        const { text, params } = run(cursor);
        const rows = t.data.db
          .prepare(text)
          .all(...(params as []))
          .map(toAsset);
        const page = rows.slice(0, q.limit);
        ids.push(...page.map((r) => r.id));
        const last = page.at(-1);
        if (rows.length <= q.limit || !last) break;
        cursor = { createdAt: last.createdAt, id: last.id };
      }
      return ids;
    };
    const drivers = everyAssetQueryPlan(t.data.db, accountId, q).map((p) => p.driver);
    expect(drivers.length).toBeGreaterThan(1);
    const results = drivers.map((driver) =>
      pages((cursor) => {
        const plan = everyAssetQueryPlan(t.data.db, accountId, { ...q, cursor }).find(
          (p) => p.driver === driver,
        );
        if (!plan) throw new Error(driver);
        return plan;
      }),
    );
    expect(results[0]?.length).toBeGreaterThan(0);
    for (const [i, r] of results.entries()) expect(r, drivers[i]).toEqual(results[0]);
  });
});
