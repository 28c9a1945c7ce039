import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  api,
  balanceOf,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
} from "../api/support.ts";

// Preflight against a real server with a render thread: the request's checks and the draw as a render
// would run them, nothing charged or stored.
let t: TestServer;
let owner: { accountId: string; key: string };
let photo: string;

const document = {
  version: 1,
  key: "preflight-card",
  name: "Preflight card",
  slots: [
    { name: "headline", type: "text", default: "Short" },
    { name: "tagline", type: "text", default: "Fits" },
    { name: "icon", type: "text", default: "Hello" },
    { name: "mystery", type: "text", default: "Odd font" },
    { name: "photo", type: "image" },
    { name: "bg", type: "color", default: "#FFFFFF" },
  ],
  frames: [
    {
      name: "main",
      width: 1200,
      height: 1400,
      bind: { background: "bg" },
      layers: [
        {
          id: "photo",
          type: "image",
          x: 0,
          y: 0,
          width: 1200,
          height: 1200,
          src: "",
          fit: "cover",
          bind: { src: "photo" },
        },
        {
          id: "headline",
          type: "text",
          x: 10,
          y: 1210,
          width: 400,
          height: 60,
          text: "",
          color: "#000000",
          font: { family: "Inter", size: 48 },
          fit: "shrink",
          min_size: 14,
          bind: { text: "headline" },
        },
        {
          id: "tagline",
          type: "text",
          x: 10,
          y: 1280,
          width: 300,
          height: 100,
          text: "",
          color: "#000000",
          font: { family: "Inter", size: 24 },
          max_lines: 2,
          bind: { text: "tagline" },
        },
        {
          id: "icon",
          type: "text",
          x: 600,
          y: 1210,
          width: 200,
          height: 60,
          text: "",
          color: "#000000",
          font: { family: "Inter", size: 32 },
          bind: { text: "icon" },
        },
        {
          id: "mystery",
          type: "text",
          x: 850,
          y: 1210,
          width: 300,
          height: 60,
          text: "",
          color: "#000000",
          font: { family: "Nonexistent Grotesk", size: 32 },
          bind: { text: "mystery" },
        },
      ],
    },
  ],
};

beforeAll(async () => {
  t = await startTestServer();
  owner = await newAccount(t, 100);
  await publishTemplate(t, owner.key, document);
  const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "small.png");
  const uploaded = await fetch(`${t.url}/v1/assets`, {
    method: "POST",
    headers: { authorization: `Bearer ${owner.key}` },
    body: form,
  });
  photo = ((await uploaded.json()) as { id: string }).id;
});
afterAll(async () => {
  await t?.close();
});

const long =
  "An overlong headline that will never fit in one short line of forty-eight pixel Inter, however it wraps";

it("reports the shrink, the truncation, the emoji fallback, the unknown font, the upscale and the defaults, charging nothing", async () => {
  const before = await balanceOf(t, owner.key);
  const assetsBefore = (await api(t, "GET", "/v1/assets?limit=200", { key: owner.key })).body.data.length;
  const res = await api(t, "POST", "/v1/renders/preflight", {
    key: owner.key,
    body: {
      template: "preflight-card",
      scale: 2,
      modifications: [
        { name: "headline", text: long },
        { name: "tagline", text: `${long}. ${long}. ${long}.` },
        { name: "icon", text: "🚀🎉" },
        { name: "photo", image_url: photo },
      ],
    },
  });
  expect(res.status).toBe(200);
  const report = res.body;
  expect(report).toMatchObject({
    valid: true,
    cost: 4,
    error: null,
    measured: true,
    width: 2400,
    height: 2800,
  });
  const byLayer = Object.fromEntries(
    report.layers.map((l: { layer: string; findings: unknown[] }) => [l.layer, l]),
  );
  expect(byLayer.headline.slot).toBe("headline");
  expect(byLayer.headline.findings).toEqual([
    expect.objectContaining({ code: "text_shrunk", from_px: 48, to_px: expect.any(Number) }),
  ]);
  expect(byLayer.headline.findings[0].to_px).toBeLessThan(48);
  expect(byLayer.headline.findings[0].to_px).toBeGreaterThanOrEqual(14);
  expect(byLayer.tagline.findings).toEqual([expect.objectContaining({ code: "text_truncated", lines: 2 })]);
  expect(byLayer.icon.findings).toEqual([
    expect.objectContaining({
      code: "glyph_fallback",
      family: "Inter",
      characters: ["🚀", "🎉"],
      fallback_families: ["Noto Color Emoji"],
    }),
  ]);
  expect(byLayer.mystery.findings).toEqual([
    expect.objectContaining({ code: "font_missing", family: "Nonexistent Grotesk" }),
  ]);
  // 300 px of source for a 1200 px box drawn at scale 2: 2400 device pixels, 8 times enlarged.
  expect(byLayer.photo.findings).toEqual([expect.objectContaining({ code: "image_upscaled", factor: 8 })]);
  expect(report.slots_defaulted.sort()).toEqual(["bg", "mystery"]);

  expect(await balanceOf(t, owner.key)).toBe(before);
  expect((await api(t, "GET", "/v1/assets?limit=200", { key: owner.key })).body.data.length).toBe(
    assetsBefore,
  );
  expect((await api(t, "GET", "/v1/batches", { key: owner.key })).body.data).toEqual([]);
});

it("a text that fits and an image that is not enlarged report nothing", async () => {
  const res = await api(t, "POST", "/v1/renders/preflight", {
    key: owner.key,
    body: {
      template: "preflight-card",
      modifications: [
        { name: "headline", text: "Fits" },
        { name: "mystery", text: "" },
        { name: "photo", image_url: t.images.url("/photo.png") },
      ],
      scale: 1,
    },
  });
  expect(res.status).toBe(200);
  // The 64 px photo is enlarged too; a 1.5x limit keeps small enlargements out of the report only.
  expect(res.body.layers.map((l: { layer: string }) => l.layer)).toEqual(["photo"]);
  expect(res.body.layers[0].findings[0].factor).toBeCloseTo(1200 / 64, 1);
  expect(res.body.cost).toBe(1);
});

it("answers the exact error a render would get, and a failed image fetch, without a charge", async () => {
  const before = await balanceOf(t, owner.key);
  const unknown = await api(t, "POST", "/v1/renders/preflight", {
    key: owner.key,
    body: { template: "preflight-card", modifications: [{ name: "nope", text: "x" }] },
  });
  expect(unknown.status).toBe(200);
  expect(unknown.body).toMatchObject({
    valid: false,
    cost: null,
    error: { code: "unknown_slot", slot: "nope" },
    layers: [],
  });
  const render = await api(t, "POST", "/v1/renders", {
    key: owner.key,
    body: { template: "preflight-card", modifications: [{ name: "nope", text: "x" }] },
  });
  expect(unknown.body.error.message).toBe(render.body.error.message);

  const broken = await api(t, "POST", "/v1/renders/preflight", {
    key: owner.key,
    body: {
      template: "preflight-card",
      modifications: [{ name: "photo", image_url: t.images.url("/missing.png") }],
    },
  });
  expect(broken.body).toMatchObject({ valid: false, error: { code: "image_fetch_failed" } });
  const malformed = await api(t, "POST", "/v1/renders/preflight", {
    key: owner.key,
    body: { template: "preflight-card", modifications: [], scale: 9 },
  });
  expect(malformed.status).toBe(400);
  expect(await balanceOf(t, owner.key)).toBe(before);
});

it("preflights a batch row by row: valid rows, their cost, each refused row's error", async () => {
  const before = await balanceOf(t, owner.key);
  const res = await api(t, "POST", "/v1/renders/batch/preflight", {
    key: owner.key,
    body: {
      renders: [
        { template: "preflight-card", modifications: [{ name: "headline", text: long }] },
        { template: "preflight-card", modifications: [{ name: "bg", color: "red" }] },
        { template: "missing-template", modifications: [] },
        { template: "preflight-card", modifications: [], scale: 2 },
      ],
    },
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ cost: 5, valid_rows: 2 });
  expect(res.body.renders.map((r: { index: number; valid: boolean }) => [r.index, r.valid])).toEqual([
    [0, true],
    [1, false],
    [2, false],
    [3, true],
  ]);
  expect(res.body.renders[0].layers[0]).toMatchObject({
    layer: "headline",
    findings: [{ code: "text_shrunk" }],
  });
  expect(res.body.renders[1].error).toMatchObject({ code: "invalid_request" });
  expect(res.body.renders[2].error).toMatchObject({ code: "not_found" });
  expect(await balanceOf(t, owner.key)).toBe(before);
});

it("has its own rate limit per key", async () => {
  const { key } = await newAccount(t, 10);
  const body = { template: "preflight-card", modifications: [] };
  const statuses: number[] = [];
  for (let i = 0; i < 25; i++)
    statuses.push((await api(t, "POST", "/v1/renders/preflight", { key, body })).status);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  // The API's own budget is untouched: other requests of the key still pass.
  expect((await api(t, "GET", "/v1/account", { key })).status).toBe(200);
});

it("each account has a budget of measured renders, whatever its keys: a batch takes its rows at once, then 429", async () => {
  const account = await newAccount(t, 10);
  const rows = Array.from({ length: 1000 }, () => ({ template: "not-here", modifications: [] }));
  const batch = await api(t, "POST", "/v1/renders/batch/preflight", {
    key: account.key,
    body: { renders: rows },
  });
  expect(batch.status).toBe(200);
  expect(batch.body.renders).toHaveLength(1000);
  // The account's 1,000 measured renders are spent: a further preflight waits for the budget to refill.
  const refused = await api(t, "POST", "/v1/renders/preflight", {
    key: account.key,
    body: { template: "preflight-card", modifications: [] },
  });
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe("rate_limited");
  expect(refused.body.error.message).toMatch(/measured by preflight/);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  // Another account is not affected.
  const other = await api(t, "POST", "/v1/renders/preflight", {
    key: owner.key,
    body: { template: "preflight-card", modifications: [] },
  });
  expect(other.status).toBe(200);
});
