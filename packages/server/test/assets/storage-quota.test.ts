import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  balanceOf,
  insertAsset,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  testTemplate,
} from "../api/support.ts";
import { upload } from "./support.ts";

// The per-account storage quota (PICTOR_STORAGE_QUOTA): uploads and imports that would take an
// account's stored files over it are refused with 413 storage_quota_exceeded and store nothing;
// render outputs count toward it but renders are never refused for it. Both backends.

const QUOTA = 2 * 1024 * 1024;

/**
 * Fills the account's stored files up to `room` bytes below the quota, as render outputs would (new
 * accounts may hold starter images already, depending on the backend's examples).
 */
async function fillUpTo(t: TestServer, account: { accountId: string; key: string }, room: number) {
  const used = await storedBytes(t, account.key);
  await insertAsset(t, account.accountId, "renders/old/", new Uint8Array(randomBytes(QUOTA - used - room)));
  return QUOTA - room;
}

/** Bytes of every file in the account's library, as GET /v1/assets lists them. */
async function storedBytes(t: TestServer, key: string): Promise<number> {
  let total = 0;
  let cursor: string | null = null;
  do {
    const page = await api(t, "GET", `/v1/assets?limit=200${cursor ? `&cursor=${cursor}` : ""}`, { key });
    for (const asset of page.body.data as { bytes: number }[]) total += asset.bytes;
    cursor = page.body.next_cursor;
  } while (cursor);
  return total;
}

/** A PNG of random pixels: it does not compress, so its size is about width x height x 3 bytes. */
async function noisePng(width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

describe("storage quota", () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ env: { PICTOR_STORAGE_QUOTA: "2M" } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("refuses an upload that would pass the quota with 413 storage_quota_exceeded, storing and charging nothing", async () => {
    const account = await newAccount(t);
    const { key } = account;
    const filled = await fillUpTo(t, account, 200 * 1024);
    const first = await noisePng(200, 200);
    const second = await noisePng(200, 200);
    expect(first.byteLength).toBeGreaterThan(100 * 1024);
    const ok = await upload(t, key, first, {}, "first.png");
    expect(ok.status).toBe(201);
    const balance = await balanceOf(t, key);
    const storedBefore = await storedBytes(t, key);
    expect(storedBefore).toBe(filled + first.byteLength);

    const refused = await upload(t, key, second, {}, "second.png");
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({
      code: "storage_quota_exceeded",
      quota_bytes: QUOTA,
      used_bytes: storedBefore,
      file_bytes: second.byteLength,
    });
    // Nothing stored, nothing charged.
    expect(await storedBytes(t, key)).toBe(storedBefore);
    const listed = await api(t, "GET", "/v1/assets?folder=uploads/", { key });
    expect(listed.body.data.map((a: { name: string }) => a.name)).toEqual(["first.png"]);
    expect(await balanceOf(t, key)).toBe(balance);

    // The same bytes again add nothing: the existing asset, as always.
    expect((await upload(t, key, first, {}, "again.png")).status).toBe(200);
    // Room made by deleting: the upload goes through.
    const id = listed.body.data[0].id as string;
    expect((await api(t, "DELETE", `/v1/assets/${id}`, { key })).status).toBe(204);
    expect((await upload(t, key, second, {}, "second.png")).status).toBe(201);
  });

  it("refuses an import the same way; renders of a full account still run, and their outputs count", async () => {
    const account = await newAccount(t);
    const { key } = account;
    // Filled to the quota as render outputs would fill it.
    await fillUpTo(t, account, 0);
    const imported = await api(t, "POST", "/v1/assets/import", {
      key,
      body: { url: t.images.url("/photo.png") },
    });
    expect(imported.status).toBe(413);
    expect(imported.body.error.code).toBe("storage_quota_exceeded");

    await publishTemplate(t, key, testTemplate("card"));
    const render = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "card", modifications: [], wait: true },
    });
    expect(render.status).toBe(200);
    expect(render.body.status).toBe("completed");
    const output = await fetch(render.body.asset_url);
    expect(output.status).toBe(200);
    await output.arrayBuffer();
    expect(await storedBytes(t, key)).toBeGreaterThan(QUOTA);
    expect(await t.data.assetLibrary.storedBytes(account.accountId)).toBe(await storedBytes(t, key));
    expect((await upload(t, key, await noisePng(10, 10), {}, "tiny.png")).status).toBe(413);
    // Another account is not affected by this one's files.
    const other = await newAccount(t);
    expect((await upload(t, other.key, await noisePng(60, 60), {}, "small.png")).status).toBe(201);
  });
});
