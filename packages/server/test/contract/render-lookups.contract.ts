import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FontFaceInfo } from "../../src/ports/asset-library.ts";
import type { AssetRecord } from "../../src/ports/asset-store.ts";
import { newAccount, type StateFactory, type StateFixture, T0, uid } from "./state-fixture.ts";

/**
 * What every RenderLookups adapter must do (SQLite, PostgreSQL): a render thread's asset reads, on
 * the thread's own connection, always scoped to the render's account.
 */
export function renderLookupsContract(adapter: string, setup: StateFactory): void {
  describe(`RenderLookups contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    const record = (accountId: string, over: Partial<AssetRecord> = {}): AssetRecord => ({
      id: uid("ast"),
      accountId,
      folder: "fonts/",
      name: "face.ttf",
      contentType: "font/ttf",
      byteSize: 100,
      width: null,
      height: null,
      blobKey: `assets/${uid("b")}`,
      token: randomBytes(16).toString("hex"),
      etag: '"e"',
      metadata: {},
      tags: [],
      renderId: null,
      createdAt: T0,
      ...over,
    });
    const upload = async (asset: AssetRecord, font: FontFaceInfo | null = null) => {
      await fx.library.insert(asset, { sha256: randomBytes(32).toString("hex"), font });
      return asset;
    };

    it("finds an asset's blob in its own account only", async () => {
      const a = await newAccount(fx, 0);
      const image = await upload(record(a, { folder: "", name: "photo.png", contentType: "image/png" }));
      expect(await fx.lookups.blobKeyOf(a, image.id)).toBe(image.blobKey);
      // A template may name any `asset://` id: another account's is as absent as an unknown one.
      expect(await fx.lookups.blobKeyOf(await newAccount(fx, 0), image.id)).toBeNull();
      expect(await fx.lookups.blobKeyOf(a, uid("ast"))).toBeNull();
    });

    it("lists an account's faces of one family, ordered by asset id byte for byte", async () => {
      const a = await newAccount(fx, 0);
      const family = `Brand ${uid("f")}`;
      const stem = uid("ast");
      // Upper case sorts before lower case and "_" between them byte for byte, not in a locale's order.
      const [bold, italic, regular] = [`${stem}_a`, `${stem}Z`, `${stem}B`];
      await upload(record(a, { id: bold }), { family, weight: 700, style: "normal" });
      await upload(record(a, { id: italic }), { family, weight: 400, style: "italic" });
      await upload(record(a, { id: regular }), { family, weight: 400, style: "normal" });
      await upload(record(a), { family: `${family} Mono`, weight: 400, style: "normal" });
      await upload(record(a, { folder: "", name: "photo.png", contentType: "image/png" }));
      const blobOf = async (id: string) => (await fx.library.get(a, id))?.blobKey;

      const faces = await fx.lookups.facesOf(a, family);
      expect(faces.map((f) => f.assetId)).toEqual([regular, italic, bold]);
      expect(faces[0]).toEqual({ assetId: regular, family, blobKey: await blobOf(regular) });
      expect(await fx.lookups.facesOf(a, "Nobody Sans")).toEqual([]);
      // Another account uploading the same family name sees only its own faces, and this one none of its.
      const b = await newAccount(fx, 0);
      const ofB = await upload(record(b), { family, weight: 400, style: "normal" });
      expect((await fx.lookups.facesOf(b, family)).map((f) => f.assetId)).toEqual([ofB.id]);
      expect(await fx.lookups.facesOf(a, family)).toHaveLength(3);
    });

    it("sees an asset written by another process at once, and not after it is deleted", async () => {
      const a = await newAccount(fx, 0);
      const family = `Late ${uid("f")}`;
      const face = record(a);
      await fx.other.library.insert(face, {
        sha256: randomBytes(32).toString("hex"),
        font: { family, weight: 400, style: "normal" },
      });
      expect(await fx.lookups.blobKeyOf(a, face.id)).toBe(face.blobKey);
      expect((await fx.lookups.facesOf(a, family)).map((f) => f.assetId)).toEqual([face.id]);
      await fx.other.library.delete(a, face.id);
      expect(await fx.lookups.blobKeyOf(a, face.id)).toBeNull();
      expect(await fx.lookups.facesOf(a, family)).toEqual([]);
    });
  });
}
