import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImageCacheEntry } from "../../src/ports/image-url-store.ts";
import { newAccount, type StateFactory, type StateFixture, T0, T1, T2, uid } from "./state-fixture.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/**
 * What every ImageUrlStore adapter must do (SQLite, PostgreSQL): URL-signing keys, each in one
 * account, and the on-demand render cache, whose entries and byte budget are kept per account.
 */
export function imageUrlsContract(adapter: string, setup: StateFactory): void {
  describe(`ImageUrlStore contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    const secret = () => `ussec_${randomBytes(16).toString("hex")}`;
    const newKey = async (accountId: string, createdAt = T0, name: string | null = "site") => {
      const key = { id: uid("usk"), accountId, name, secret: secret(), createdAt };
      await fx.imageUrls.createKey(key);
      return key;
    };
    const entry = (accountId: string, over: Partial<ImageCacheEntry> = {}): ImageCacheEntry => ({
      accountId,
      cacheKey: randomBytes(32).toString("hex"),
      assetId: uid("ast"),
      templateId: uid("tpl"),
      templateVersion: 3,
      byteSize: 1000,
      lastUsedAt: NOW,
      createdAt: T0,
      ...over,
    });

    it("creates keys in one account; finds one by id from any account, lists and counts an account's, oldest first", async () => {
      const a = await newAccount(fx, 0);
      const b = await newAccount(fx, 0);
      const second = await newKey(a, T1, null);
      const first = await newKey(a, T0);
      const ofB = await newKey(b, T0);
      // The id is public (it is in every signed URL): found whatever account asks, the account named.
      expect(await fx.other.imageUrls.findKey(first.id, T2)).toEqual({
        ...first,
        previous: null,
        rotatedAt: null,
      });
      expect((await fx.imageUrls.findKey(ofB.id, T2))?.accountId).toBe(b);
      expect(await fx.imageUrls.findKey(uid("usk"), T2)).toBeNull();
      expect((await fx.other.imageUrls.listKeys(a, T2)).map((k) => k.id)).toEqual([first.id, second.id]);
      expect((await fx.imageUrls.listKeys(a, T2))[1]).toEqual({ ...second, previous: null, rotatedAt: null });
      expect(await fx.imageUrls.countKeys(a)).toBe(2);
      expect(await fx.imageUrls.countKeys(b)).toBe(1);
      expect(await fx.imageUrls.listKeys(await newAccount(fx, 0), T2)).toEqual([]);
    });

    it("rotates a key of the account, keeping the replaced secret until it expires; refuses another account's", async () => {
      const a = await newKey(await newAccount(fx, 0));
      const next = secret();
      expect(
        await fx.imageUrls.rotateKey(await newAccount(fx, 0), a.id, {
          secret: next,
          previousExpiresAt: T2,
          at: T1,
        }),
      ).toBe(false);
      expect(
        await fx.imageUrls.rotateKey(a.accountId, uid("usk"), {
          secret: next,
          previousExpiresAt: T2,
          at: T1,
        }),
      ).toBe(false);
      expect((await fx.imageUrls.findKey(a.id, T1))?.secret).toBe(a.secret);

      expect(
        await fx.imageUrls.rotateKey(a.accountId, a.id, { secret: next, previousExpiresAt: T2, at: T1 }),
      ).toBe(true);
      const rotated = { ...a, secret: next, previous: { secret: a.secret, expiresAt: T2 }, rotatedAt: T1 };
      expect(await fx.other.imageUrls.findKey(a.id, T1)).toEqual(rotated);
      expect(await fx.imageUrls.listKeys(a.accountId, T1)).toEqual([rotated]);
      // At its expiry the replaced secret is gone, whoever reads.
      expect((await fx.other.imageUrls.findKey(a.id, T2))?.previous).toBeNull();
      expect((await fx.imageUrls.listKeys(a.accountId, T2))[0]?.previous).toBeNull();

      // A second rotation replaces the current secret, not the one kept before.
      const third = secret();
      const later = "2026-11-22T12:02:00.000Z";
      await fx.imageUrls.rotateKey(a.accountId, a.id, { secret: third, previousExpiresAt: later, at: T2 });
      expect(await fx.imageUrls.findKey(a.id, T2)).toEqual({
        ...a,
        secret: third,
        previous: { secret: next, expiresAt: later },
        rotatedAt: T2,
      });
    });

    it("deletes a key of the account only", async () => {
      const a = await newKey(await newAccount(fx, 0));
      expect(await fx.imageUrls.deleteKey(await newAccount(fx, 0), a.id)).toBe(false);
      expect(await fx.imageUrls.findKey(a.id, T1)).not.toBeNull();
      expect(await fx.other.imageUrls.deleteKey(a.accountId, a.id)).toBe(true);
      expect(await fx.imageUrls.findKey(a.id, T1)).toBeNull();
      expect(await fx.imageUrls.countKeys(a.accountId)).toBe(0);
      expect(await fx.imageUrls.deleteKey(a.accountId, a.id)).toBe(false);
    });

    it("puts and gets cache entries per account; a put of the same key replaces the entry", async () => {
      const a = await newAccount(fx, 0);
      const b = await newAccount(fx, 0);
      const e = entry(a, { byteSize: 12_345_678_901 });
      await fx.imageUrls.putEntry(e);
      expect(await fx.other.imageUrls.getEntry(a, e.cacheKey)).toEqual(e);
      // The same inputs in another account are another entry.
      expect(await fx.imageUrls.getEntry(b, e.cacheKey)).toBeNull();
      const ofB = { ...e, accountId: b, assetId: uid("ast"), byteSize: 7 };
      await fx.imageUrls.putEntry(ofB);
      expect(await fx.imageUrls.getEntry(b, e.cacheKey)).toEqual(ofB);
      expect(await fx.imageUrls.getEntry(a, e.cacheKey)).toEqual(e);

      // Another process rendered the same inputs meanwhile: its entry replaces this one.
      const replaced = { ...e, assetId: uid("ast"), byteSize: 500, lastUsedAt: NOW + 10, createdAt: T1 };
      await fx.other.imageUrls.putEntry(replaced);
      expect(await fx.imageUrls.getEntry(a, e.cacheKey)).toEqual(replaced);
      expect(await fx.imageUrls.totalBytes(a)).toBe(500);
    });

    it("touches an entry forward only", async () => {
      const a = await newAccount(fx, 0);
      const e = entry(a);
      await fx.imageUrls.putEntry(e);
      await fx.imageUrls.touchEntry(a, e.cacheKey, NOW + 60_000);
      expect((await fx.other.imageUrls.getEntry(a, e.cacheKey))?.lastUsedAt).toBe(NOW + 60_000);
      // A request that read the entry earlier and touches it late does not move it back.
      await fx.other.imageUrls.touchEntry(a, e.cacheKey, NOW + 1000);
      expect((await fx.imageUrls.getEntry(a, e.cacheKey))?.lastUsedAt).toBe(NOW + 60_000);
      // Another account's touch of the same key changes nothing here.
      await fx.imageUrls.touchEntry(await newAccount(fx, 0), e.cacheKey, NOW + 120_000);
      expect((await fx.imageUrls.getEntry(a, e.cacheKey))?.lastUsedAt).toBe(NOW + 60_000);
    });

    it("deletes an entry only while it still names the asset", async () => {
      const a = await newAccount(fx, 0);
      const e = entry(a);
      await fx.imageUrls.putEntry(e);
      const rerendered = { ...e, assetId: uid("ast") };
      await fx.other.imageUrls.putEntry(rerendered);
      // An eviction that read the entry before it was replaced leaves the new one alone.
      expect(await fx.imageUrls.deleteEntry(a, e.cacheKey, e.assetId)).toBe(false);
      expect(await fx.imageUrls.deleteEntry(await newAccount(fx, 0), e.cacheKey, rerendered.assetId)).toBe(
        false,
      );
      expect(await fx.imageUrls.getEntry(a, e.cacheKey)).toEqual(rerendered);
      expect(await fx.imageUrls.deleteEntry(a, e.cacheKey, rerendered.assetId)).toBe(true);
      expect(await fx.other.imageUrls.getEntry(a, e.cacheKey)).toBeNull();
      expect(await fx.imageUrls.deleteEntry(a, e.cacheKey, rerendered.assetId)).toBe(false);
    });

    it("keeps each account's bytes and least recently used entries to itself", async () => {
      const a = await newAccount(fx, 0);
      const b = await newAccount(fx, 0);
      expect(await fx.imageUrls.totalBytes(a)).toBe(0);
      expect(await fx.imageUrls.oldestEntries(a, 10)).toEqual([]);
      const newest = entry(a, { byteSize: 100, lastUsedAt: NOW + 3 });
      const oldest = entry(a, { byteSize: 200, lastUsedAt: NOW + 1 });
      const middle = entry(a, { byteSize: 300, lastUsedAt: NOW + 2 });
      // B's entries are older than all of A's, and larger: A's budget and eviction never see them.
      const ofB = [
        entry(b, { byteSize: 5000, lastUsedAt: NOW }),
        entry(b, { byteSize: 6000, lastUsedAt: NOW }),
      ];
      for (const e of [newest, oldest, ...ofB, middle]) await fx.imageUrls.putEntry(e);

      expect(await fx.other.imageUrls.totalBytes(a)).toBe(600);
      expect(await fx.other.imageUrls.totalBytes(b)).toBe(11_000);
      expect(await fx.imageUrls.oldestEntries(a, 2)).toEqual([oldest, middle]);
      expect(await fx.imageUrls.oldestEntries(a, 10)).toEqual([oldest, middle, newest]);
      // Entries used at the same moment come in cache-key order.
      const sameTime = [...ofB].sort((x, y) => (x.cacheKey < y.cacheKey ? -1 : 1));
      expect(await fx.imageUrls.oldestEntries(b, 10)).toEqual(sameTime);

      // A touch makes an entry the most recent; an eviction lowers the account's bytes only.
      await fx.imageUrls.touchEntry(a, oldest.cacheKey, NOW + 4);
      expect((await fx.imageUrls.oldestEntries(a, 10)).map((e) => e.cacheKey)).toEqual([
        middle.cacheKey,
        newest.cacheKey,
        oldest.cacheKey,
      ]);
      expect(await fx.imageUrls.deleteEntry(a, middle.cacheKey, middle.assetId)).toBe(true);
      expect(await fx.imageUrls.totalBytes(a)).toBe(300);
      expect(await fx.imageUrls.totalBytes(b)).toBe(11_000);
    });
  });
}
