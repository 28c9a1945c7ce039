import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssetRecord } from "../../src/ports/asset-store.ts";
import { newAccount, type StateFactory, type StateFixture, T0, uid } from "./state-fixture.ts";

/** What every AssetStore adapter must do (SQLite, PostgreSQL). */
export function assetsContract(adapter: string, setup: StateFactory): void {
  describe(`AssetStore contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    const asset = (accountId: string, over: Partial<AssetRecord> = {}): AssetRecord => ({
      id: uid("ast"),
      accountId,
      folder: "uploads/",
      name: "photo.jpg",
      contentType: "image/jpeg",
      byteSize: 5_000_000_000,
      width: 4000,
      height: null,
      blobKey: `assets/${uid("b")}.jpg`,
      token: randomBytes(16).toString("hex"),
      etag: '"abc"',
      metadata: { z: "1", a: "2" },
      tags: ["b", "a"],
      renderId: null,
      createdAt: T0,
      ...over,
    });

    it("stores an asset field for field and finds it by account+id, by id and by token", async () => {
      const accountId = await newAccount(fx, 0);
      const a = asset(accountId);
      await fx.assets.insert(a);
      expect(await fx.assets.get(accountId, a.id)).toEqual(a);
      expect(await fx.other.assets.getById(a.id)).toEqual(a);
      expect(await fx.assets.getByToken(a.token)).toEqual(a);
      expect(Object.keys((await fx.assets.getById(a.id))?.metadata ?? {})).toEqual(["z", "a"]);
    });

    it("hides an asset from other accounts and answers null for unknown ids and tokens", async () => {
      const accountId = await newAccount(fx, 0);
      const stranger = await newAccount(fx, 0);
      const a = asset(accountId);
      await fx.assets.insert(a);
      expect(await fx.assets.get(stranger, a.id)).toBeNull();
      expect(await fx.assets.getById("ast_missing")).toBeNull();
      expect(await fx.assets.getByToken(randomBytes(16).toString("hex"))).toBeNull();
    });

    it("reads several of an account's assets at once, leaving out unknown ids and other accounts'", async () => {
      const accountId = await newAccount(fx, 0);
      const stranger = await newAccount(fx, 0);
      const [a, b, theirs] = [asset(accountId), asset(accountId), asset(stranger)];
      for (const x of [a, b, theirs]) await fx.assets.insert(x);
      const found = await fx.assets.getMany(accountId, [b.id, "ast_missing", theirs.id, a.id]);
      expect(found.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
        [a, b].sort((x, y) => x.id.localeCompare(y.id)),
      );
      expect(await fx.assets.getMany(accountId, [])).toEqual([]);
    });

    it("refuses a second asset with the same token or for the same render", async () => {
      const accountId = await newAccount(fx, 0);
      const a = asset(accountId, { renderId: uid("rnd") });
      await fx.assets.insert(a);
      await expect(fx.assets.insert(asset(accountId, { token: a.token }))).rejects.toThrow();
      await expect(fx.assets.insert(asset(accountId, { renderId: a.renderId }))).rejects.toThrow();
    });
  });
}
