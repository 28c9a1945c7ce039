import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TemplateRecord } from "../../src/ports/template-store.ts";
import { doc, newAccount, type StateFactory, type StateFixture, T0, T1, T2, uid } from "./state-fixture.ts";

/** What every TemplateStore adapter must do (SQLite, PostgreSQL). */
export function templatesContract(adapter: string, setup: StateFactory): void {
  describe(`TemplateStore contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    const record = (accountId: string, key: string, id = uid("tpl")): TemplateRecord => ({
      id,
      accountId,
      key,
      name: `Template ${key}`,
      draft: doc(key),
      publishedVersion: null,
      archivedAt: null,
      createdAt: T0,
      updatedAt: T0,
    });

    it("inserts and finds by id or key within the account only, document key order intact", async () => {
      const accountId = await newAccount(fx, 0);
      const stranger = await newAccount(fx, 0);
      const t = record(accountId, "og-card");
      expect(await fx.templates.insert(t)).toBe(true);
      expect(await fx.templates.find(accountId, t.id)).toEqual(t);
      const byKey = await fx.other.templates.find(accountId, "og-card");
      expect(byKey).toEqual(t);
      expect(Object.keys(byKey?.draft as object)).toEqual(Object.keys(t.draft));
      expect(await fx.templates.find(stranger, t.id)).toBeNull();
      expect(await fx.templates.find(accountId, "missing")).toBeNull();
    });

    it("refuses a key already used in the account, allows it in another", async () => {
      const a = await newAccount(fx, 0);
      const b = await newAccount(fx, 0);
      expect(await fx.templates.insert(record(a, "promo"))).toBe(true);
      expect(await fx.templates.insert(record(a, "promo"))).toBe(false);
      expect(await fx.templates.insert(record(b, "promo"))).toBe(true);
    });

    it("updates the draft with its key and name; refuses a key that collides", async () => {
      const accountId = await newAccount(fx, 0);
      const t = record(accountId, "first");
      await fx.templates.insert(t);
      await fx.templates.insert(record(accountId, "taken"));
      expect(await fx.templates.updateDraft(accountId, t.id, doc("renamed", { v: 2 }), T1)).toBe(true);
      expect(await fx.templates.find(accountId, "renamed")).toMatchObject({
        id: t.id,
        key: "renamed",
        name: "Template renamed",
        draft: doc("renamed", { v: 2 }),
        updatedAt: T1,
        createdAt: T0,
      });
      expect(await fx.templates.updateDraft(accountId, t.id, doc("taken"), T2)).toBe(false);
      expect((await fx.templates.find(accountId, t.id))?.key).toBe("renamed");
    });

    it("publishes numbered frozen versions; later draft edits do not touch them", async () => {
      const accountId = await newAccount(fx, 0);
      const t = record(accountId, "versions");
      await fx.templates.insert(t);
      const v1 = await fx.templates.publish(accountId, t.id, T1);
      expect(v1).toEqual({ templateId: t.id, version: 1, document: t.draft, publishedAt: T1 });
      await fx.templates.updateDraft(accountId, t.id, doc("versions", { edited: true }), T2);
      const v2 = await fx.other.templates.publish(accountId, t.id, T2);
      expect(v2.version).toBe(2);
      expect(await fx.templates.version(t.id, 1)).toEqual(v1);
      expect(await fx.templates.versions(t.id, { limit: 50, afterVersion: null })).toEqual([v1, v2]);
      expect(await fx.templates.versions(t.id, { limit: 1, afterVersion: null })).toEqual([v1]);
      expect(await fx.templates.versions(t.id, { limit: 1, afterVersion: 1 })).toEqual([v2]);
      expect(await fx.templates.versions(t.id, { limit: 1, afterVersion: 2 })).toEqual([]);
      expect(await fx.templates.version(t.id, 3)).toBeNull();
      expect((await fx.templates.find(accountId, t.id))?.publishedVersion).toBe(2);
    });

    it("gives concurrent publishes consecutive versions", async () => {
      const accountId = await newAccount(fx, 0);
      const t = record(accountId, "race");
      await fx.templates.insert(t);
      const versions = await Promise.all(
        [0, 1, 2, 3].map((i) => (i % 2 ? fx.other : fx).templates.publish(accountId, t.id, T1)),
      );
      expect(versions.map((v) => v.version).sort()).toEqual([1, 2, 3, 4]);
    });

    it("lists unarchived templates by id in pages; publishedOnly filters; publishing unarchives", async () => {
      const accountId = await newAccount(fx, 0);
      // Ids chosen so byte order and a natural-language collation disagree ("_" vs letters, case).
      const ids = ["tpl_A", "tpl_B_x", "tpl_a", "tpl_b"];
      for (const [i, id] of ids.entries()) await fx.templates.insert(record(accountId, `list-${i}`, id));
      await fx.templates.publish(accountId, "tpl_B_x", T1);
      const page1 = await fx.templates.list(accountId, { limit: 2, after: null, publishedOnly: false });
      const page2 = await fx.templates.list(accountId, {
        limit: 10,
        after: page1.at(-1)?.id ?? null,
        publishedOnly: false,
      });
      expect([...page1, ...page2].map((t) => t.id)).toEqual(ids);
      expect(
        (await fx.templates.list(accountId, { limit: 10, after: null, publishedOnly: true })).map(
          (t) => t.id,
        ),
      ).toEqual(["tpl_B_x"]);

      await fx.templates.archive(accountId, "tpl_B_x", T2);
      expect((await fx.templates.find(accountId, "tpl_B_x"))?.archivedAt).toBe(T2);
      expect(
        (await fx.templates.list(accountId, { limit: 10, after: null, publishedOnly: false })).map(
          (t) => t.id,
        ),
      ).toEqual(["tpl_A", "tpl_a", "tpl_b"]);
      await fx.templates.publish(accountId, "tpl_B_x", T2);
      expect((await fx.templates.find(accountId, "tpl_B_x"))?.archivedAt).toBeNull();
    });
  });
}
