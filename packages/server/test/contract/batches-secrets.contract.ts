import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchState, INTERRUPTED_AFTER_MS } from "../../src/domain/batches.ts";
import type { BatchRecord } from "../../src/ports/batch-store.ts";
import { newAccount, type StateFactory, type StateFixture, T0, T1, T2, uid } from "./state-fixture.ts";

/** What every BatchStore and WebhookSecretStore adapter must do (SQLite, PostgreSQL). */
export function batchesAndSecretsContract(adapter: string, setup: StateFactory): void {
  describe(`BatchStore + WebhookSecretStore contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    /** Writes a batch the way acceptBatch does: header, each row, then finished (unless `finish` is false). */
    async function write(batch: BatchRecord, finish = true): Promise<void> {
      const { rows: _rows, state: _state, ...header } = batch;
      await fx.batches.begin(header);
      for (const row of batch.rows) await fx.batches.recordRow(batch.id, row);
      if (finish) await fx.batches.finish(batch.id);
    }

    it("stores a batch with its rows in order, within its account only", async () => {
      const accountId = await newAccount(fx, 0);
      const batch: BatchRecord = {
        id: uid("bat"),
        accountId,
        webhookUrl: "https://example.com/batch",
        metadata: { z: "1", a: "2" },
        createdAt: T0,
        rowCount: 1000,
        state: "accepted",
        rows: Array.from({ length: 1000 }, (_, index) =>
          index % 7 === 3
            ? {
                index,
                renderId: null,
                error: { code: "unknown_slot", message: "no slot x", path: `/renders/${index}` },
              }
            : { index, renderId: uid("rnd"), error: null },
        ),
      };
      await write(batch);
      const got = await fx.other.batches.get(accountId, batch.id);
      expect(got).toEqual(batch);
      expect(Object.keys(got?.metadata ?? {})).toEqual(["z", "a"]);
      expect(await fx.batches.get(await newAccount(fx, 0), batch.id)).toBeNull();
      expect(await fx.batches.get(accountId, "bat_missing")).toBeNull();
    });

    it("stores an empty batch and one without a webhook", async () => {
      const accountId = await newAccount(fx, 0);
      const batch: BatchRecord = {
        id: uid("bat"),
        accountId,
        webhookUrl: null,
        metadata: {},
        createdAt: T0,
        rowCount: 0,
        state: "accepted",
        rows: [],
      };
      await write(batch);
      expect(await fx.batches.get(accountId, batch.id)).toEqual(batch);
    });

    it("makes rows readable while the batch is still accepting, from another connection", async () => {
      const accountId = await newAccount(fx, 0);
      const header = {
        id: uid("bat"),
        accountId,
        webhookUrl: null,
        metadata: { run: "1" },
        createdAt: T0,
        rowCount: 3,
      };
      await fx.batches.begin(header);
      expect(await fx.other.batches.get(accountId, header.id)).toEqual({
        ...header,
        state: "accepting",
        rows: [],
      });
      const first = { index: 0, renderId: uid("rnd"), error: null };
      await fx.batches.recordRow(header.id, first);
      expect(await fx.other.batches.get(accountId, header.id)).toEqual({
        ...header,
        state: "accepting",
        rows: [first],
      });
      const second = { index: 1, renderId: null, error: { code: "invalid_scale", message: "bad" } };
      const third = { index: 2, renderId: uid("rnd"), error: null };
      await fx.batches.recordRow(header.id, second);
      await fx.batches.recordRow(header.id, third);
      await fx.batches.finish(header.id);
      expect(await fx.other.batches.get(accountId, header.id)).toEqual({
        ...header,
        state: "accepted",
        rows: [first, second, third],
      });
    });

    it("keeps an interrupted batch's recorded rows: never finished, it stays accepting with what it has", async () => {
      const accountId = await newAccount(fx, 0);
      const batch: BatchRecord = {
        id: uid("bat"),
        accountId,
        webhookUrl: "https://example.com/b",
        metadata: {},
        createdAt: T0,
        rowCount: 10,
        state: "accepting",
        rows: [0, 1, 2, 3].map((index) => ({ index, renderId: uid("rnd"), error: null })),
      };
      await write(batch, false);
      const got = await fx.other.batches.get(accountId, batch.id);
      expect(got).toEqual(batch);
      expect(batchState(got as BatchRecord, new Date(T0))).toBe("accepting");
      expect(batchState(got as BatchRecord, new Date(Date.parse(T0) + INTERRUPTED_AFTER_MS))).toBe(
        "interrupted",
      );
    });

    it("finds the newest batch begun under an Idempotency-Key since a time, within its account only", async () => {
      const accountId = await newAccount(fx, 0);
      const header = (id: string, createdAt: string, idempotencyKey: string | null) => ({
        id,
        accountId,
        webhookUrl: null,
        metadata: {},
        createdAt,
        rowCount: 2,
        idempotencyKey,
      });
      const [older, newer, unkeyed] = [uid("bat"), uid("bat"), uid("bat")];
      await fx.batches.begin(header(older as string, T0, "order-7"));
      await fx.batches.begin(header(newer as string, T1, "order-7"));
      await fx.batches.begin(header(unkeyed as string, T2, null));
      const row = { index: 0, renderId: uid("rnd"), error: null };
      await fx.batches.recordRow(newer as string, row);
      const found = await fx.other.batches.findByIdempotencyKey(accountId, "order-7", T0);
      expect(found).toEqual({
        id: newer,
        accountId,
        webhookUrl: null,
        metadata: {},
        createdAt: T1,
        rowCount: 2,
        state: "accepting",
        rows: [row],
      });
      expect(await fx.batches.findByIdempotencyKey(accountId, "order-7", T2)).toBeNull();
      expect(await fx.batches.findByIdempotencyKey(accountId, "order-8", T0)).toBeNull();
      expect(await fx.batches.findByIdempotencyKey(await newAccount(fx, 0), "order-7", T0)).toBeNull();
    });

    it("replaces a row's reservation by its outcome: a row is recorded once per index", async () => {
      const accountId = await newAccount(fx, 0);
      const id = uid("bat");
      await fx.batches.begin({ id, accountId, webhookUrl: null, metadata: {}, createdAt: T0, rowCount: 1 });
      await fx.batches.recordRow(id, { index: 0, renderId: uid("rnd"), error: null });
      const refused = { index: 0, renderId: null, error: { code: "insufficient_credits", message: "no" } };
      await fx.batches.recordRow(id, refused);
      expect((await fx.other.batches.get(accountId, id))?.rows).toEqual([refused]);
    });

    it("lists an account's batches newest first, page by page, with their state", async () => {
      const accountId = await newAccount(fx, 0);
      const ids = [uid("bat"), uid("bat"), uid("bat")];
      const times = [T0, T1, T1];
      for (const [i, id] of ids.entries()) {
        await fx.batches.begin({
          id,
          accountId,
          webhookUrl: null,
          metadata: {},
          createdAt: times[i] as string,
          rowCount: 2,
        });
      }
      await fx.batches.finish(ids[0] as string);
      await fx.batches.begin({
        id: uid("bat"),
        accountId: await newAccount(fx, 0),
        webhookUrl: null,
        metadata: {},
        createdAt: T2,
        rowCount: 1,
      });
      // Same created_at: the larger id first.
      const newestFirst = [...ids.slice(1).sort().reverse(), ids[0]];
      const all = await fx.other.batches.list(accountId, { limit: 10, after: null });
      expect(all.map((b) => b.id)).toEqual(newestFirst);
      expect(all.map((b) => b.state)).toEqual(["accepting", "accepting", "accepted"]);
      expect(all[2]).toEqual({
        id: ids[0],
        accountId,
        webhookUrl: null,
        metadata: {},
        createdAt: T0,
        rowCount: 2,
        state: "accepted",
      });
      const first = await fx.batches.list(accountId, { limit: 2, after: null });
      expect(first.map((b) => b.id)).toEqual(newestFirst.slice(0, 2));
      expect(
        (await fx.batches.list(accountId, { limit: 2, after: first[1]?.id ?? "" })).map((b) => b.id),
      ).toEqual([ids[0]]);
      expect(await fx.batches.list(accountId, { limit: 2, after: ids[0] as string })).toEqual([]);
    });

    it("rotates webhook secrets: the previous one stays valid until its expiry, an older one is dropped", async () => {
      const accountId = await newAccount(fx, 0);
      const initial = await fx.accounts.webhookSecret(accountId);
      expect(await fx.secrets.webhookSecrets(accountId, T0)).toEqual({ secret: initial, previous: null });

      expect(await fx.secrets.rotateWebhookSecret(accountId, "whsec_two", T2)).toBe(true);
      expect(await fx.other.secrets.webhookSecrets(accountId, T1)).toEqual({
        secret: "whsec_two",
        previous: { secret: initial, expiresAt: T2 },
      });
      expect(await fx.accounts.webhookSecret(accountId)).toBe("whsec_two");
      expect(await fx.secrets.webhookSecrets(accountId, T2)).toEqual({ secret: "whsec_two", previous: null });

      await fx.secrets.rotateWebhookSecret(accountId, "whsec_three", T2);
      expect((await fx.secrets.webhookSecrets(accountId, T1))?.previous?.secret).toBe("whsec_two");
      expect(await fx.secrets.rotateWebhookSecret("acc_missing", "x", T2)).toBe(false);
      expect(await fx.secrets.webhookSecrets("acc_missing", T0)).toBeNull();
    });
  });
}
