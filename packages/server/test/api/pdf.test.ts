import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeRgba,
  differingBytes,
  pdfImages,
  pdfInfo,
  popplerRequired,
  rasterisePages,
} from "../../../render-node/test/support/poppler.ts";
import { type CallbackTestServer, startCallbackServer } from "../callbacks/support.ts";
import { api, balanceOf, newAccount, publishTemplate } from "./support.ts";

// Issue 20: PDF output over real HTTP on loopback (and, in the server-pg project, on PostgreSQL + S3).
// Pages are read back with poppler (pdfinfo, pdfimages, pdftoppm), as a print shop would.

/** A two-sided ticket: `front` 200x100 and `back` 120x160; the back's photo slot appears on the back only. */
const ticket = {
  version: 1,
  key: "ticket",
  name: "Summer party ticket",
  slots: [
    { name: "title", type: "text", default: "Admit one" },
    { name: "bg", type: "color", default: "#1D3557" },
    { name: "back_photo", type: "image" },
  ],
  frames: [
    {
      name: "front",
      width: 200,
      height: 100,
      background: "#FFFFFF",
      bind: { background: "bg" },
      layers: [
        {
          id: "title",
          type: "text",
          x: 10,
          y: 10,
          width: 180,
          height: 40,
          text: "x",
          font: { family: "Inter", size: 20, weight: 700 },
          color: "#F1FAEE",
          bind: { text: "title" },
        },
      ],
    },
    {
      name: "back",
      width: 120,
      height: 160,
      background: "#F1FAEE",
      layers: [
        {
          id: "photo",
          type: "image",
          x: 10,
          y: 10,
          width: 100,
          height: 80,
          src: "",
          bind: { src: "back_photo" },
        },
        {
          id: "fine",
          type: "text",
          x: 10,
          y: 100,
          width: 100,
          height: 50,
          text: "Non-transferable",
          font: { family: "Inter", size: 11 },
          color: "#1D3557",
        },
      ],
    },
    { name: "stub", width: 80, height: 100, background: "#E63946", layers: [] },
    { name: "banner", width: 2400, height: 100, layers: [] },
  ],
};

let t: CallbackTestServer;
let key: string;

beforeAll(async () => {
  t = await startCallbackServer({ receivers: 1, workers: 1 });
  ({ key } = await newAccount(t, 1000));
  t.secrets.push((await api(t, "GET", "/v1/webhook-secret", { key })).body.secret);
  await publishTemplate(t, key, ticket);
});
afterAll(() => t?.close());

const render = (body: Record<string, unknown>) =>
  api(t, "POST", "/v1/renders", { key, body: { template: "ticket", modifications: [], ...body } });

async function bytesOf(url: string): Promise<{ type: string | null; bytes: Uint8Array }> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return { type: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
}

(popplerRequired ? describe : describe.skip)("format pdf", () => {
  it("renders the frames asked, one page each in order, charging scale² a page; each page is the PNG's pixels", async () => {
    const before = await balanceOf(t, key);
    const modifications = [
      { name: "title", text: "Summer party" },
      { name: "back_photo", image_url: t.images.url("/photo.png") },
    ];
    const res = await render({
      format: "pdf",
      frames: ["back", "front"],
      scale: 2,
      modifications,
      wait: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "completed",
      format: "pdf",
      frame: "back",
      frames: ["back", "front"],
      pages: 2,
      dpi: 96,
      scale: 2,
      width: 240,
      height: 320,
      credits_charged: 8,
      credits_refunded: 0,
    });
    expect(await balanceOf(t, key)).toBe(before - 8);
    expect(res.body.asset_url).toMatch(/\/a\/[0-9a-f]{32}\.pdf$/);

    const permanent = await bytesOf(res.body.asset_url);
    expect(permanent.type).toBe("application/pdf");
    const signed = await bytesOf(res.body.output_url);
    expect(signed.type).toBe("application/pdf");
    expect(Buffer.from(signed.bytes).equals(Buffer.from(permanent.bytes))).toBe(true);

    const info = await pdfInfo(permanent.bytes);
    expect(info).toMatchObject({ pages: 2, title: "Summer party ticket", creator: "Pictor" });
    expect(info.pageSizes).toEqual([
      { width: 90, height: 120 },
      { width: 150, height: 75 },
    ]);
    expect((await pdfImages(permanent.bytes)).map((i) => [i.width, i.height, i.enc])).toEqual([
      [240, 320, "image"],
      [400, 200, "image"],
    ]);

    // Scale 2 at 96 px per inch: 192 dpi gives the pages' own pixels.
    const pages = await rasterisePages(permanent.bytes, 192);
    for (const [i, frame] of ["back", "front"].entries()) {
      const png = await render({ format: "png", frame, scale: 2, modifications, wait: true });
      expect(png.status).toBe(200);
      const page = pages[i];
      const want = await decodeRgba((await bytesOf(png.body.asset_url)).bytes);
      expect(page && differingBytes(page, want)).toBe(0);
    }

    // The output is in the asset library like an image output.
    const found = await api(t, "POST", "/v1/assets/query", {
      key,
      body: { content_type: "application/pdf", folder: "renders/ticket/" },
    });
    expect(found.status).toBe(200);
    expect(found.body.data.map((a: { id: string }) => a.id)).toContain(res.body.asset_id);
    const asset = found.body.data.find((a: { id: string }) => a.id === res.body.asset_id);
    expect(asset).toMatchObject({ content_type: "application/pdf", width: 240, height: 320 });
    expect(asset.name).toMatch(/\.pdf$/);
  });

  it('one frame is one page; "all" takes every frame in the template\'s order; quality stores JPEG pages', async () => {
    const one = await render({ format: "pdf", frame: "stub", wait: true });
    expect(one.body).toMatchObject({ status: "completed", frames: ["stub"], pages: 1, credits_charged: 1 });
    expect((await pdfInfo((await bytesOf(one.body.asset_url)).bytes)).pageSizes).toEqual([
      { width: 60, height: 75 },
    ]);

    const first = await render({ format: "pdf", wait: true });
    expect(first.body).toMatchObject({ frames: ["front"], pages: 1 });

    const all = await render({ format: "pdf", frames: "all", quality: 80, dpi: 150, wait: true });
    expect(all.body).toMatchObject({
      frames: ["front", "back", "stub", "banner"],
      pages: 4,
      credits_charged: 4,
      dpi: 150,
    });
    const bytes = (await bytesOf(all.body.asset_url)).bytes;
    expect((await pdfInfo(bytes)).pageSizes).toEqual([
      { width: 96, height: 48 },
      { width: 57.6, height: 76.8 },
      { width: 38.4, height: 48 },
      { width: 1152, height: 48 },
    ]);
    expect((await pdfImages(bytes)).map((i) => i.enc)).toEqual(["jpeg", "jpeg", "jpeg", "jpeg"]);

    // Images are unchanged: one image of one frame, and their job says so.
    const png = await render({ frame: "back", wait: true });
    expect(png.body).toMatchObject({
      format: "png",
      frames: ["back"],
      pages: null,
      dpi: null,
      credits_charged: 1,
    });
  });

  it("a page that fails fails the whole render and refunds every page", async () => {
    const before = await balanceOf(t, key);
    const res = await render({
      format: "pdf",
      frames: ["front", "back"],
      scale: 2,
      modifications: [{ name: "back_photo", image_url: t.images.url("/missing.png") }],
      wait: true,
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "image_fetch_failed", credits_refunded: 8 });
    expect(await balanceOf(t, key)).toBe(before);
    const job = (await api(t, "GET", `/v1/renders/${res.body.error.render_id}`, { key })).body;
    expect(job).toMatchObject({
      status: "failed",
      pages: 2,
      credits_charged: 8,
      credits_refunded: 8,
      asset_url: null,
    });
    const ledger = (await api(t, "GET", "/v1/account/ledger?order=desc&limit=10", { key })).body.data.filter(
      (e: { render_id: string }) => e.render_id === job.id,
    );
    expect(ledger.map((e: { kind: string; amount: number }) => [e.kind, e.amount]).sort()).toEqual([
      ["charge", -8],
      ["refund", 8],
    ]);
  });

  it.each([
    [{ frames: [] }, "invalid_request", "frames"],
    [{ frames: ["front", "inside"] }, "invalid_request", "frames[1]"],
    [{ frames: ["front", "back", "front"] }, "invalid_request", "frames[2]"],
    [{ frames: ["front"], frame: "back" }, "invalid_request", "frames"],
    [{ frames: "some" }, "invalid_request", "frames"],
    [{ frame: "inside" }, "invalid_request", "frame"],
    [{ quality: 0 }, "invalid_request", "quality"],
    [{ quality: 101 }, "invalid_request", "quality"],
    [{ quality: 50.5 }, "invalid_request", "quality"],
    [{ dpi: 5 }, "invalid_request", "dpi"],
    [{ format: "png", frames: ["front", "back"] }, "invalid_request", "frames"],
    [{ format: "jpg", dpi: 300 }, "invalid_request", "dpi"],
    [{ scale: 5 }, "invalid_scale", null],
  ])("%j is 400 %s at %s, nothing charged", async (fields, code, path) => {
    const before = await balanceOf(t, key);
    const res = await render({ format: "pdf", ...fields, wait: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    if (path !== null) expect(res.body.error.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("a page too large for PDF readers is refused naming dpi; too few credits for every page is 402", async () => {
    const huge = await render({ format: "pdf", frames: ["banner"], dpi: 10 });
    expect(huge.status).toBe(400);
    expect(huge.body.error.errors).toEqual([{ path: "dpi", message: "Page over 200 inches." }]);
    expect(huge.body.error.message).toMatch(/over 200 inches/);

    const poor = await newAccount(t, 2);
    await publishTemplate(t, poor.key, ticket);
    const res = await api(t, "POST", "/v1/renders", {
      key: poor.key,
      body: { template: "ticket", modifications: [], format: "pdf", frames: ["front", "back", "stub"] },
    });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: "insufficient_credits", required: 3, balance: 2 });
    expect(await balanceOf(t, poor.key)).toBe(2);
  });

  it("batch rows render PDFs beside images, charged per page; a bad row fails alone; callbacks report pages", async () => {
    const receiver = t.receivers[0] as CallbackTestServer["receivers"][0];
    const before = await balanceOf(t, key);
    const seen = receiver.received.length;
    const res = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: {
        webhook_url: receiver.url("/pdf"),
        renders: [
          { template: "ticket", modifications: [], format: "pdf", frames: ["front", "stub"], scale: 1.5 },
          { template: "ticket", modifications: [], format: "pdf", frames: ["front", "nowhere"] },
          { template: "ticket", modifications: [], frame: "stub" },
        ],
      },
    });
    expect(res.status).toBe(202);
    const [pdfRow, badRow, pngRow] = res.body.renders;
    expect(pdfRow).toMatchObject({ index: 0, status: "queued", format: "pdf", pages: 2, credits_charged: 6 });
    expect(badRow).toMatchObject({
      index: 1,
      error: { code: "invalid_request", errors: [{ path: "frames[1]" }] },
    });
    expect(pngRow).toMatchObject({ index: 2, format: "png", credits_charged: 1 });
    expect(await balanceOf(t, key)).toBe(before - 7);

    await receiver.waitForRequest(seen + 2);
    const bodies = receiver.received.slice(seen).map((r) => JSON.parse(r.rawBody.toString("utf8")));
    const pdfCallback = bodies.find((b) => b.id === pdfRow.id);
    expect(pdfCallback).toMatchObject({
      status: "completed",
      credits_charged: 6,
      pages: 2,
      width: 300,
      height: 150,
    });
    expect(pdfCallback.asset_url).toMatch(/\.pdf$/);
    const pngCallback = bodies.find((b) => b.id === pngRow.id);
    expect(pngCallback).toMatchObject({ credits_charged: 1 });
    expect(pngCallback).not.toHaveProperty("pages");
    const pdf = await bytesOf(pdfCallback.asset_url);
    expect((await pdfInfo(pdf.bytes)).pages).toBe(2);
  });
});

describe("OpenAPI document", () => {
  it("describes format pdf, frames and dpi on renders (batch rows point to them), and pages on the job", async () => {
    const document = (await api(t, "GET", "/v1/openapi.json")).body;
    const text = JSON.stringify(document);
    const body = document.paths["/v1/renders"].post.requestBody.content["application/json"].schema;
    const resolve = (schema: { $ref?: string }) =>
      schema.$ref ? document.components.schemas[schema.$ref.split("/").pop() as string] : schema;
    const props = resolve(body).properties;
    expect(JSON.stringify(props.format)).toContain('"pdf"');
    expect(JSON.stringify(props.frames)).toMatch(/"minItems":1/);
    expect(JSON.stringify(props.frames)).toContain('"all"');
    expect(props.dpi).toMatchObject({ type: "number", minimum: 10, maximum: 2400 });
    expect(text).toMatch(/"pages":\{/);
    // Batch rows are checked one by one and documented as BatchRow: a POST /v1/renders body without
    // wait, so a row takes the same PDF fields.
    const batch = resolve(
      document.paths["/v1/renders/batch"].post.requestBody.content["application/json"].schema,
    );
    const row = resolve(batch.properties.renders.items);
    expect(row.description).toMatch(/POST \/v1\/renders body/);
    expect(row.properties.dpi).toEqual(props.dpi);
    expect(row.properties.frames).toEqual(props.frames);
    expect(row.properties.wait).toBeUndefined();
  });
});
