import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  balanceOf,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  testTemplate,
} from "../api/support.ts";
import { pngBytes, upload } from "./support.ts";

// testTemplate's slot `logo` is bound to folder "brand" (a 40x40 box at 150,10).
let t: TestServer;
let key: string;
let otherKey: string;
let inBrand: { id: string; asset_url: string };
let inSubfolder: { id: string; asset_url: string };
let elsewhere: { id: string; asset_url: string };
let foreign: { id: string; asset_url: string };

beforeAll(async () => {
  t = await startTestServer();
  key = (await newAccount(t, 50)).key;
  otherKey = (await newAccount(t, 50)).key;
  await publishTemplate(t, key, testTemplate("card"));
  inBrand = (await upload(t, key, await pngBytes(16, "#00ff00"), { folder: "brand" })).body;
  inSubfolder = (await upload(t, key, await pngBytes(17, "#0000ff"), { folder: "brand/logos" })).body;
  elsewhere = (await upload(t, key, await pngBytes(18, "#ff0000"), { folder: "brandx" })).body;
  foreign = (await upload(t, otherKey, await pngBytes(19, "#ff00ff"), { folder: "brand" })).body;
});
afterAll(() => t?.close());

const renderLogo = (value: string, k = key) =>
  api(t, "POST", "/v1/renders", {
    key: k,
    body: { template: "card", modifications: [{ name: "logo", image_url: value }], wait: true },
  });

async function logoPixel(outputUrl: string): Promise<number[]> {
  const png = Buffer.from(await (await fetch(outputUrl)).arrayBuffer());
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (30 * info.width + 170) * info.channels;
  return [data[at] ?? -1, data[at + 1] ?? -1, data[at + 2] ?? -1];
}

describe("folder-bound image slots", () => {
  it.each([
    ["an asset of another folder, by asset_url", () => elsewhere.asset_url],
    ["an asset of another folder, by id", () => elsewhere.id],
    ["another account's asset in that folder, by asset_url", () => foreign.asset_url],
    ["another account's asset in that folder, by id", () => foreign.id],
    ["an external URL", () => t.images.url("/photo.png")],
  ])("refuse %s with 422 image_out_of_folder and charge nothing", async (_what, value) => {
    const before = await balanceOf(t, key);
    const res = await renderLogo(value());
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "image_out_of_folder", slot: "logo", folder: "brand" });
    expect(await balanceOf(t, key)).toBe(before);
  });

  it("render an asset of the bound folder, read from storage (its URL is not fetchable by the server)", async () => {
    // The asset_url points at this server on 127.0.0.1, which the outbound guard blocks: the render
    // succeeds only because the worker reads the bytes from the blob store.
    const before = await balanceOf(t, key);
    const byUrl = await renderLogo(inBrand.asset_url);
    expect(byUrl.status, JSON.stringify(byUrl.body)).toBe(200);
    expect(await logoPixel(byUrl.body.output_url)).toEqual([0, 255, 0]);
    const byId = await renderLogo(inSubfolder.id);
    expect(byId.status).toBe(200);
    expect(await logoPixel(byId.body.output_url)).toEqual([0, 0, 255]);
    expect(await balanceOf(t, key)).toBe(before - 2);
  });

  it("follow the asset when PATCH moves it out of the folder", async () => {
    const moved = (await upload(t, key, await pngBytes(20, "#00ff00"), { folder: "brand" })).body;
    expect((await renderLogo(moved.id)).status).toBe(200);
    await api(t, "PATCH", `/v1/assets/${moved.id}`, { key, body: { folder: "archive" } });
    expect((await renderLogo(moved.id)).body.error.code).toBe("image_out_of_folder");
  });
});
