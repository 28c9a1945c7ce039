import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssetQuery, LibraryAsset } from "../../src/ports/asset-library.ts";
import type { AssetRecord } from "../../src/ports/asset-store.ts";
import { newAccount, type StateFactory, type StateFixture, uid } from "./state-fixture.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 12, minute)).toISOString();

const query = (over: Partial<AssetQuery> = {}): AssetQuery => ({
  tagsAll: [],
  tagsAny: [],
  metadata: {},
  folder: null,
  recursive: false,
  contentTypes: [],
  created: {},
  limit: 100,
  cursor: null,
  ...over,
});

/** What every AssetLibrary adapter must do (SQLite, PostgreSQL). Each test works in its own account. */
export function assetLibraryContract(adapter: string, setup: StateFactory): void {
  describe(`AssetLibrary contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    const record = (accountId: string, over: Partial<AssetRecord> = {}): AssetRecord => ({
      id: uid("ast"),
      accountId,
      folder: "",
      name: "photo.png",
      contentType: "image/png",
      byteSize: 100,
      width: 10,
      height: 10,
      blobKey: `assets/${uid("b")}`,
      token: randomBytes(16).toString("hex"),
      etag: '"e"',
      metadata: {},
      tags: [],
      renderId: null,
      createdAt: at(0),
      ...over,
    });
    const sha = () => randomBytes(32).toString("hex");
    const ids = (assets: LibraryAsset[]) => assets.map((a) => a.name);

    it("stores a record with its file facts; finds uploads (not render outputs) by hash", async () => {
      const accountId = await newAccount(fx, 0);
      const font = { family: "Inter Contract", weight: 700, style: "italic" as const };
      const a = record(accountId, { name: "font.ttf", contentType: "font/ttf", folder: "fonts/" });
      const hash = sha();
      await fx.library.insert(a, { sha256: hash, font });
      expect(await fx.other.library.get(accountId, a.id)).toEqual({ ...a, sha256: hash, font });
      expect(await fx.library.get(await newAccount(fx, 0), a.id)).toBeNull();
      expect((await fx.library.findBySha256(accountId, hash))?.id).toBe(a.id);

      const output = record(accountId, { renderId: uid("rnd") });
      const outputHash = sha();
      await fx.library.insert(output, { sha256: outputHash, font: null });
      expect(await fx.library.findBySha256(accountId, outputHash)).toBeNull();
      expect(await fx.library.findBySha256(accountId, sha())).toBeNull();
    });

    it("filters by all tags, any tag, metadata, folder (exact or below), type and creation time", async () => {
      const accountId = await newAccount(fx, 0);
      const put = (name: string, over: Partial<AssetRecord>) =>
        fx.library.insert(record(accountId, { name, ...over }), { sha256: sha(), font: null });
      await put("a", { tags: ["red", "big"], metadata: { shop: "x" }, folder: "promo/", createdAt: at(1) });
      await put("b", { tags: ["red"], metadata: { shop: "y" }, folder: "promo/2026/", createdAt: at(2) });
      await put("c", { tags: ["blue"], folder: "promo0/", contentType: "image/jpeg", createdAt: at(3) });
      await put("d", { tags: [], folder: "", createdAt: at(4) });

      const names = async (q: Partial<AssetQuery>) =>
        ids((await fx.library.query(accountId, query(q))).assets);
      expect(await names({})).toEqual(["d", "c", "b", "a"]);
      expect(await names({ tagsAll: ["red", "big"] })).toEqual(["a"]);
      expect(await names({ tagsAny: ["big", "blue"] })).toEqual(["c", "a"]);
      expect(await names({ metadata: { shop: "y" } })).toEqual(["b"]);
      expect(await names({ folder: "promo/" })).toEqual(["a"]);
      expect(await names({ folder: "promo/", recursive: true })).toEqual(["b", "a"]);
      expect(await names({ folder: "", recursive: false })).toEqual(["d"]);
      expect(await names({ contentTypes: ["image/jpeg"] })).toEqual(["c"]);
      expect(await names({ created: { gt: at(1), lte: at(3) } })).toEqual(["c", "b"]);
    });

    it("pages newest first with a keyset cursor, ties broken by id", async () => {
      const accountId = await newAccount(fx, 0);
      for (const [i, name] of ["p1", "p2", "p3", "p4", "p5"].entries()) {
        await fx.library.insert(
          record(accountId, { id: `ast_${name}`, name, createdAt: at(i < 3 ? 5 : 6) }),
          {
            sha256: sha(),
            font: null,
          },
        );
      }
      const first = await fx.library.query(accountId, query({ limit: 2 }));
      expect(ids(first.assets)).toEqual(["p5", "p4"]);
      const second = await fx.library.query(accountId, query({ limit: 2, cursor: first.next }));
      expect(ids(second.assets)).toEqual(["p3", "p2"]);
      const last = await fx.other.library.query(accountId, query({ limit: 2, cursor: second.next }));
      expect(ids(last.assets)).toEqual(["p1"]);
      expect(last.next).toBeNull();
    });

    it("updates folder, name, tags and metadata, and the indexes follow", async () => {
      const accountId = await newAccount(fx, 0);
      const a = record(accountId, { tags: ["old"], metadata: { k: "1" } });
      await fx.library.insert(a, { sha256: sha(), font: null });
      const updated = await fx.library.update(accountId, a.id, {
        tags: ["new"],
        metadata: { k: "2" },
        folder: "x/",
      });
      expect(updated).toMatchObject({ tags: ["new"], metadata: { k: "2" }, folder: "x/", name: a.name });
      expect(await fx.library.get(accountId, a.id)).toEqual(updated);
      const found = async (q: Partial<AssetQuery>) =>
        (await fx.library.query(accountId, query(q))).assets.length;
      expect(await found({ tagsAll: ["old"] })).toBe(0);
      expect(await found({ tagsAll: ["new"], metadata: { k: "2" } })).toBe(1);
      expect(await fx.library.update(await newAccount(fx, 0), a.id, { name: "x" })).toBeNull();
    });

    it("deletes the record and its index rows, within its account only", async () => {
      const accountId = await newAccount(fx, 0);
      const a = record(accountId, { tags: ["gone"] });
      await fx.library.insert(a, { sha256: sha(), font: null });
      expect(await fx.library.delete(await newAccount(fx, 0), a.id)).toBeNull();
      expect((await fx.library.delete(accountId, a.id))?.id).toBe(a.id);
      expect(await fx.library.get(accountId, a.id)).toBeNull();
      expect((await fx.library.query(accountId, query({ tagsAll: ["gone"] }))).assets).toEqual([]);
      expect(await fx.library.delete(accountId, a.id)).toBeNull();
    });

    it("says whether any record of any account still names a blob key", async () => {
      const [mine, theirs] = [await newAccount(fx, 0), await newAccount(fx, 0)];
      const shared = `uploads/${uid("shared")}.png`;
      const a = record(mine, { blobKey: shared });
      const b = record(theirs, { blobKey: shared });
      await fx.library.insert(a, { sha256: sha(), font: null });
      await fx.library.insert(b, { sha256: sha(), font: null });
      expect(await fx.library.isBlobReferenced(shared)).toBe(true);
      await fx.library.delete(mine, a.id);
      expect(await fx.other.library.isBlobReferenced(shared)).toBe(true);
      await fx.library.delete(theirs, b.id);
      expect(await fx.library.isBlobReferenced(shared)).toBe(false);
      expect(await fx.library.isBlobReferenced(`uploads/${uid("never")}.png`)).toBe(false);
    });

    it("lists the account's fonts newest first", async () => {
      const accountId = await newAccount(fx, 0);
      const face = (family: string) => ({ family, weight: 400, style: "normal" as const });
      await fx.library.insert(record(accountId, { name: "old.ttf", createdAt: at(1) }), {
        sha256: sha(),
        font: face("A"),
      });
      await fx.library.insert(record(accountId, { name: "new.ttf", createdAt: at(2) }), {
        sha256: sha(),
        font: face("B"),
      });
      await fx.library.insert(record(accountId, { name: "img.png", createdAt: at(3) }), {
        sha256: sha(),
        font: null,
      });
      expect((await fx.library.fonts(accountId)).map((f) => f.font.family)).toEqual(["B", "A"]);
    });
  });
}
