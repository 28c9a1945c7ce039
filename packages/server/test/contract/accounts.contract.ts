import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, type StateFactory, type StateFixture, T0, T1, T2, uid } from "./state-fixture.ts";

const hash = () => new Uint8Array(randomBytes(32));

/** What every AccountStore adapter must do (SQLite, PostgreSQL). */
export function accountsContract(adapter: string, setup: StateFactory): void {
  describe(`AccountStore contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    it("creates the account, its first key and its starting credits together", async () => {
      const id = uid("acc");
      const key = { id: uid("key"), hash: hash(), prefix: "sk_live_a1b2", name: "first" };
      await fx.accounts.create({
        account: { id, name: "Acme", createdAt: T0 },
        webhookSecret: "whsec_x",
        key,
        grant: 30,
      });
      expect(await fx.accounts.get(id)).toEqual({ id, name: "Acme", createdAt: T0 });
      expect(await fx.accounts.webhookSecret(id)).toBe("whsec_x");
      expect(await fx.ledger.balance(id)).toBe(30);
      const found = await fx.other.accounts.findKeyByHash(key.hash);
      expect(found?.hash).toEqual(key.hash);
      expect(found?.key).toEqual({
        id: key.id,
        accountId: id,
        prefix: "sk_live_a1b2",
        name: "first",
        createdAt: T0,
        lastUsedAt: null,
        revokedAt: null,
      });
    });

    it("creates nothing when any part fails (a key hash already in use)", async () => {
      const taken = hash();
      await fx.accounts.create({
        account: { id: uid("acc"), name: "first", createdAt: T0 },
        webhookSecret: "s",
        key: { id: uid("key"), hash: taken, prefix: "p", name: null },
        grant: 0,
      });
      const id = uid("acc");
      await expect(
        fx.accounts.create({
          account: { id, name: "second", createdAt: T0 },
          webhookSecret: "s",
          key: { id: uid("key"), hash: taken, prefix: "p", name: null },
          grant: 30,
        }),
      ).rejects.toThrow();
      expect(await fx.accounts.get(id)).toBeNull();
      expect(await fx.ledger.balance(id)).toBe(0);
    });

    it("answers null for unknown accounts and keys", async () => {
      expect(await fx.accounts.get("acc_missing")).toBeNull();
      expect(await fx.accounts.webhookSecret("acc_missing")).toBeNull();
      expect(await fx.accounts.findKeyByHash(hash())).toBeNull();
    });

    it("adds, lists (oldest first), touches and revokes keys; a revoked key no longer resolves", async () => {
      const accountId = await newAccount(fx, 0);
      const second = { id: uid("key"), hash: hash(), prefix: "sk_live_2", name: "ci", createdAt: T1 };
      await fx.accounts.addKey(accountId, second);
      await fx.accounts.touchKey(second.id, T2);
      const all = { limit: 50, after: null };
      const keys = await fx.accounts.listKeys(accountId, all);
      expect(keys).toHaveLength(2);
      const { hash: _, ...listed } = second;
      expect(keys[1]).toEqual({ ...listed, accountId, lastUsedAt: T2, revokedAt: null });

      expect(await fx.accounts.revokeKey("acc_other", second.id, T2)).toBe(false);
      expect(await fx.accounts.revokeKey(accountId, second.id, T2)).toBe(true);
      expect(await fx.other.accounts.revokeKey(accountId, second.id, T2)).toBe(false);
      expect(await fx.accounts.findKeyByHash(second.hash)).toBeNull();
      expect((await fx.accounts.listKeys(accountId, all))[1]?.revokedAt).toBe(T2);
      expect(await fx.accounts.activeKeyCount(accountId)).toBe(1);
      expect(await fx.accounts.activeKeyCount("acc_missing")).toBe(0);
      expect(await fx.accounts.revokeKey(accountId, "key_missing", T2)).toBe(false);
    });

    it("pages keys in creation order, ties by id, from the previous page's last key", async () => {
      const accountId = await newAccount(fx, 0);
      for (const createdAt of [T2, T1, T1]) {
        await fx.accounts.addKey(accountId, {
          id: uid("key"),
          hash: hash(),
          prefix: "sk_live_x",
          name: null,
          createdAt,
        });
      }
      const all = await fx.accounts.listKeys(accountId, { limit: 50, after: null });
      expect(all).toHaveLength(4);
      const paged = [];
      let after: string | null = null;
      for (;;) {
        const page = await fx.accounts.listKeys(accountId, { limit: 1, after });
        if (page.length === 0) break;
        expect(page).toHaveLength(1);
        paged.push(...page);
        after = page[0]?.id ?? null;
      }
      expect(paged).toEqual(all);
      // Another account's key is no cursor into this one's.
      const otherAccount = await newAccount(fx, 0);
      const [otherKey] = await fx.accounts.listKeys(otherAccount, { limit: 1, after: null });
      expect(await fx.accounts.listKeys(accountId, { limit: 50, after: otherKey?.id ?? "" })).toEqual([]);
    });
  });

  describe(`AccountStore contract, on an empty database: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    const candidate = (name: string, grant: number) => ({
      account: { id: uid("acc"), name, createdAt: T0 },
      webhookSecret: `whsec_${name}`,
      key: { id: uid("key"), hash: hash(), prefix: "sk_live_f", name: "default" },
      grant,
    });

    it("createIfNone creates the first account only: of two connections racing, one wins; later calls write nothing", async () => {
      const [a, b] = [candidate("first-a", 30), candidate("first-b", 30)];
      const won = await Promise.all([fx.accounts.createIfNone(a), fx.other.accounts.createIfNone(b)]);
      expect(won.filter(Boolean)).toHaveLength(1);
      const [winner, loser] = won[0] ? [a, b] : [b, a];
      expect(await fx.accounts.get(winner.account.id)).toEqual(winner.account);
      expect(await fx.ledger.balance(winner.account.id)).toBe(30);
      expect((await fx.accounts.findKeyByHash(winner.key.hash))?.key.accountId).toBe(winner.account.id);
      // The loser left nothing behind: no account, key or credits.
      expect(await fx.accounts.get(loser.account.id)).toBeNull();
      expect(await fx.accounts.findKeyByHash(loser.key.hash)).toBeNull();
      expect(await fx.ledger.balance(loser.account.id)).toBe(0);

      const late = candidate("late", 30);
      expect(await fx.other.accounts.createIfNone(late)).toBe(false);
      expect(await fx.accounts.get(late.account.id)).toBeNull();
      expect(await fx.accounts.list({ limit: 50, after: null })).toEqual([winner.account]);
    });

    it("lists accounts in creation order, ties by id, a page after the previous page's last account", async () => {
      const created = [];
      for (const createdAt of [T2, T1, T1]) {
        const next = candidate("listed", 0);
        next.account.createdAt = createdAt;
        await fx.accounts.create(next);
        created.push(next.account);
      }
      const all = await fx.other.accounts.list({ limit: 50, after: null });
      expect(all).toHaveLength(4);
      const t1 = created.filter((a) => a.createdAt === T1).sort((x, y) => (x.id < y.id ? -1 : 1));
      expect(all.slice(1)).toEqual([...t1, created[0]]);
      const paged = [];
      let after: string | null = null;
      for (;;) {
        const page = await fx.accounts.list({ limit: 1, after });
        if (page.length === 0) break;
        expect(page).toHaveLength(1);
        paged.push(...page);
        after = page[0]?.id ?? null;
      }
      expect(paged).toEqual(all);
      expect(await fx.accounts.list({ limit: 50, after: "acc_missing" })).toEqual([]);
    });
  });
}
