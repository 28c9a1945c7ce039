import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BatchRecord } from "../../src/domain/batches.ts";
import { newAccount, type StateFactory, type StateFixture, T0, T1, T2, uid } from "./state-fixture.ts";

/** What every BatchStore and WebhookSecretStore adapter must do (SQLite, PostgreSQL). */
export function batchesAndSecretsContract(adapter: string, setup: StateFactory): void {
  describe(`BatchStore + WebhookSecretStore contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    it("stores a batch with its rows in order, within its account only", async () => {
      const accountId = await newAccount(fx, 0);
      const batch: BatchRecord = {
        id: uid("bat"),
        accountId,
        webhookUrl: "https://example.com/batch",
        metadata: { z: "1", a: "2" },
        createdAt: T0,
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
      await fx.batches.insert(batch);
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
        rows: [],
      };
      await fx.batches.insert(batch);
      expect(await fx.batches.get(accountId, batch.id)).toEqual(batch);
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
