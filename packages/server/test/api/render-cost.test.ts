import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photoDoc, shadowedText } from "../support/heavy-documents.ts";
import {
  api,
  balanceOf,
  insertAsset,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
} from "./support.ts";

/**
 * A render is estimated before it is charged (the cost model: domain/render-cost.ts over
 * @pictor/render-node/cost and the engine's estimate) and refused as `422 render_too_large`, naming
 * the frame and the layer, when it cannot be drawn at all or its peak is over the per-render memory
 * budget; a render naming an asset the account no longer has is refused as `422 image_fetch_failed`
 * before anything is drawn. Nothing is charged either way. Before, the shadowed text at scale 2
 * failed on its render thread as `500` ("could not create a 32800x32800 raster surface"), the photo
 * drew 1.4 GB under a 1 GiB budget, and a PDF whose last page named a deleted asset drew its first
 * pages for seconds before it failed and was refunded.
 */

const card = {
  version: 2,
  key: "card",
  name: "Card",
  slots: [],
  frames: [
    {
      name: "main",
      width: 600,
      height: 315,
      background: "#F4F1EA",
      layers: [
        {
          id: "title",
          type: "text",
          x: 20,
          y: 20,
          width: 560,
          height: 100,
          text: "Still rendering",
          color: "#111111",
          font: { family: "Inter", size: 48 },
        },
      ],
    },
  ],
};

/** Four 8000x8000 pages; the last shows `assetId` (a slot's default) and a design image. */
const brochure = (assetId: string, designId: string) => ({
  version: 2,
  key: "brochure",
  name: "Brochure",
  slots: [{ name: "photo", type: "image", default: `asset://${assetId}` }],
  frames: [1, 2, 3, 4].map((n) => ({
    name: `page${n}`,
    width: 8000,
    height: 8000,
    background: "#FFFFFF",
    layers: [
      {
        id: `title${n}`,
        type: "text",
        x: 400,
        y: 400,
        width: 7200,
        height: 2000,
        text: `Page ${n}`,
        color: "#112233",
        font: { family: "Inter", size: 600 },
        shadows: [{ x: 20, y: 20, blur: 60, color: "#00000080" }],
      },
      ...(n === 4
        ? [
            {
              id: "photo",
              type: "image",
              x: 0,
              y: 3000,
              width: 4000,
              height: 4000,
              src: "",
              bind: { src: "photo" },
            },
            {
              id: "logo",
              type: "image",
              x: 4000,
              y: 3000,
              width: 1000,
              height: 1000,
              src: `asset://${designId}`,
            },
          ]
        : []),
    ],
  })),
});

const png = async (size: number) =>
  new Uint8Array(
    await sharp({ create: { width: size, height: size, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer(),
  );

const ledgerKinds = async (t: TestServer, key: string) =>
  ((await api(t, "GET", "/v1/account/ledger", { key })).body.data as { kind: string }[]).map((e) => e.kind);

describe("renders estimated before the charge (default memory budget)", () => {
  let t: TestServer;
  let account: { accountId: string; key: string };

  beforeAll(async () => {
    t = await startTestServer();
    account = await newAccount(t, 40);
    await publishTemplate(t, account.key, shadowedText);
    await publishTemplate(t, account.key, card);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the shadowed text at scale 2 is refused up front as 422 render_too_large naming the layer; nothing charged", async () => {
    for (const wait of [true, false]) {
      const res = await api(t, "POST", "/v1/renders", {
        key: account.key,
        body: { template: "shadowed-text", modifications: [], scale: 2, wait },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error).toMatchObject({
        code: "render_too_large",
        frame: "main",
        layer: "headline",
        path: "frames[0].layers[0]",
        scale: 2,
      });
      expect(res.body.error.message).toMatch(
        /Frame 'main' at scale 2 \(16000x16000 pixels\) cannot be drawn/,
      );
      expect(res.body.error.message).toMatch(/layer 'headline'/);
      expect(res.body.error.estimated_bytes).toBeGreaterThan(res.body.error.limit_bytes);
      expect(res.body.error.render_id).toBeUndefined();
    }
    expect(await balanceOf(t, account.key)).toBe(40);
    expect(await ledgerKinds(t, account.key)).toEqual(["grant"]);
  });

  it("a batch refuses that row alone, the others render", async () => {
    const res = await api(t, "POST", "/v1/renders/batch", {
      key: account.key,
      body: {
        renders: [
          { template: "card", modifications: [] },
          { template: "shadowed-text", modifications: [], scale: 2 },
          { template: "card", modifications: [], scale: 2 },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const [first, second, third] = res.body.renders;
    expect(first.id).toMatch(/^rnd_/);
    expect(second.error).toMatchObject({ code: "render_too_large", layer: "headline" });
    expect(third.id).toMatch(/^rnd_/);
    expect(await balanceOf(t, account.key)).toBe(40 - 1 - 4);
  });
});

describe("with a small --memory-budget", () => {
  let t: TestServer;
  let account: { accountId: string; key: string };

  beforeAll(async () => {
    t = await startTestServer({ env: { PICTOR_MEMORY_BUDGET: "1024" } });
    account = await newAccount(t, 10);
    const photo = await insertAsset(t, account.accountId, "photos", await png(64));
    await publishTemplate(t, account.key, shadowedText);
    await publishTemplate(t, account.key, photoDoc(photo.id));
    await publishTemplate(t, account.key, card);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses the shadowed text and the 8000x8000 photo as 422 render_too_large; a card renders", async () => {
    const heavy = await api(t, "POST", "/v1/renders", {
      key: account.key,
      body: { template: "shadowed-text", modifications: [], wait: true },
    });
    expect(heavy.status, JSON.stringify(heavy.body)).toBe(422);
    expect(heavy.body.error).toMatchObject({ code: "render_too_large", layer: "headline", frame: "main" });

    const photo = await api(t, "POST", "/v1/renders", {
      key: account.key,
      body: { template: "big-photo", modifications: [], wait: true },
    });
    expect(photo.status, JSON.stringify(photo.body)).toBe(422);
    expect(photo.body.error).toMatchObject({ code: "render_too_large", layer: "photo", frame: "main" });
    // Over the budget (1024 MiB, one thread: 1024 - 120 main - 102.4 editor images - 130 thread - 256
    // - 32 caches = 383.6 MiB).
    expect(photo.body.error.limit_bytes).toBe(Math.floor(383.6 * 1024 * 1024));
    expect(photo.body.error.estimated_bytes).toBeGreaterThan(photo.body.error.limit_bytes);
    expect(photo.body.error.message).toMatch(/over this server's 384 MiB per render/);

    expect(await balanceOf(t, account.key)).toBe(10);
    const ok = await api(t, "POST", "/v1/renders", {
      key: account.key,
      body: { template: "card", modifications: [], scale: 2, wait: true },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await balanceOf(t, account.key)).toBe(6);
  });
});

describe("assets checked before drawing", () => {
  let t: TestServer;
  let account: { accountId: string; key: string };
  let deleted: string;

  beforeAll(async () => {
    t = await startTestServer();
    account = await newAccount(t, 100);
    deleted = (await insertAsset(t, account.accountId, "photos", await png(32))).id;
    const design = (await insertAsset(t, account.accountId, "logos", await png(16))).id;
    await publishTemplate(t, account.key, brochure(deleted, design));
    const removed = await api(t, "DELETE", `/v1/assets/${deleted}`, { key: account.key });
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a 4-page 8000x8000 PDF whose page 4 names a deleted asset is refused before drawing; nothing charged", async () => {
    for (const wait of [true, false]) {
      const started = Date.now();
      const res = await api(t, "POST", "/v1/renders", {
        key: account.key,
        body: { template: "brochure", modifications: [], format: "pdf", frames: "all", wait },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error).toMatchObject({
        code: "image_fetch_failed",
        asset_id: deleted,
        frame: "page4",
        slot: "photo",
      });
      expect(res.body.error.render_id).toBeUndefined();
      // Refused at acceptance: nothing was drawn (the pages before took seconds each).
      expect(Date.now() - started).toBeLessThan(3_000);
    }
    expect(await balanceOf(t, account.key)).toBe(100);
    expect(await ledgerKinds(t, account.key)).toEqual(["grant"]);
  });

  it("renders once the request names an asset that exists instead; pages without it never needed it", async () => {
    const present = await insertAsset(t, account.accountId, "photos", await png(32));
    const pages = await api(t, "POST", "/v1/renders", {
      key: account.key,
      body: { template: "brochure", modifications: [], format: "pdf", frames: ["page1"] },
    });
    expect(pages.status, JSON.stringify(pages.body)).toBe(202);
    const withPhoto = await api(t, "POST", "/v1/renders", {
      key: account.key,
      body: {
        template: "brochure",
        modifications: [{ name: "photo", image_url: present.id }],
        frame: "page4",
        scale: 1,
      },
    });
    expect(withPhoto.status, JSON.stringify(withPhoto.body)).toBe(202);
  });
});
