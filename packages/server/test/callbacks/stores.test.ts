import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createSqliteWebhookSecretStore } from "../../src/adapters/sqlite/account-store.ts";
import { createSqliteWebhookOutbox } from "../../src/adapters/sqlite/webhook-outbox.ts";
import { createAccount } from "../../src/domain/accounts.ts";
import { newId } from "../../src/domain/ids.ts";
import { type DataDir, openDataDir } from "../../src/main/data-dir.ts";
import type { AssetRecord } from "../../src/ports/asset-store.ts";
import type { RenderRecord } from "../../src/ports/render-store.ts";
import type { OutboxEventInput } from "../../src/ports/webhook-outbox.ts";
import { queuedRender } from "../contract/state-fixture.ts";

// The SQLite pieces behind the wiring: completion and its callback event in one transaction, and
// the previous webhook secret's expiry.

let dir: string;
let data: DataDir;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pictor-callback-stores-"));
  data = openDataDir(dir, { examplesDir: join(dir, "none") });
});
afterEach(() => {
  data.close();
  rmSync(dir, { recursive: true, force: true });
});

async function acceptedRender(accountId: string): Promise<RenderRecord> {
  const render = queuedRender(accountId, "tpl_x", {
    templateKey: "x",
    webhookUrl: "https://example.com/hook",
    createdAt: new Date().toISOString(),
  });
  expect(await data.renders.accept(render)).toEqual({ accepted: true });
  return render;
}

function outputAsset(render: RenderRecord): AssetRecord {
  return {
    id: newId("ast"),
    accountId: render.accountId,
    folder: "renders/x/",
    name: `${render.id}.png`,
    contentType: "image/png",
    byteSize: 1,
    width: 10,
    height: 10,
    blobKey: `renders/${render.id}.png`,
    token: newId("ast").slice(4).padEnd(32, "0"),
    etag: '"x"',
    metadata: {},
    tags: [],
    renderId: render.id,
    createdAt: new Date().toISOString(),
  };
}

const event = (render: RenderRecord, body: string | null): OutboxEventInput => ({
  event_id: `evt_${render.id}`,
  account_id: render.accountId,
  render_id: render.id,
  url: "https://example.com/hook",
  body: body as string,
  created_at: Date.now(),
});

it("complete() stores the callback event with the completion; if the event cannot be stored, the render stays unfinished", async () => {
  const { accountId } = await createAccount(data, { name: "a", credits: 5 });
  const outbox = createSqliteWebhookOutbox(data.db);

  const ok = await acceptedRender(accountId);
  await data.renders.complete(ok.id, {
    asset: outputAsset(ok),
    warnings: [],
    at: new Date().toISOString(),
    callback: event(ok, '{"id":"x"}'),
  });
  expect((await data.renders.get(accountId, ok.id))?.status).toBe("completed");
  expect((await outbox.listAttempts(ok.id))?.state).toBe("pending");

  // A NOT NULL violation on the event row (null body) must roll the completion back with it.
  const broken = await acceptedRender(accountId);
  await expect(
    data.renders.complete(broken.id, {
      asset: outputAsset(broken),
      warnings: [],
      at: new Date().toISOString(),
      callback: event(broken, null),
    }),
  ).rejects.toThrow();
  expect((await data.renders.get(accountId, broken.id))?.status).toBe("queued");
  expect(await outbox.listAttempts(broken.id)).toBeNull();

  // Failing a render never creates an event.
  const failed = await acceptedRender(accountId);
  await data.renders.failAndRefund(
    failed.id,
    { code: "image_invalid", message: "x" },
    new Date().toISOString(),
  );
  expect(await outbox.listAttempts(failed.id)).toBeNull();
});

it("the previous secret is returned only until it expires; rotating again drops the older one", async () => {
  const { accountId } = await createAccount(data, { name: "a" });
  const store = createSqliteWebhookSecretStore(data.db);
  const first = (await data.accounts.webhookSecret(accountId)) as string;
  expect(await store.webhookSecrets(accountId, "2030-01-01T00:00:00.000Z")).toEqual({
    secret: first,
    previous: null,
  });

  expect(await store.rotateWebhookSecret(accountId, "whsec_second", "2030-01-08T00:00:00.000Z")).toBe(true);
  expect(await data.accounts.webhookSecret(accountId)).toBe("whsec_second");
  expect(await store.webhookSecrets(accountId, "2030-01-07T23:59:59.999Z")).toEqual({
    secret: "whsec_second",
    previous: { secret: first, expiresAt: "2030-01-08T00:00:00.000Z" },
  });
  expect(await store.webhookSecrets(accountId, "2030-01-08T00:00:00.000Z")).toEqual({
    secret: "whsec_second",
    previous: null,
  });

  await store.rotateWebhookSecret(accountId, "whsec_third", "2030-01-09T00:00:00.000Z");
  expect((await store.webhookSecrets(accountId, "2030-01-02T00:00:00.000Z"))?.previous?.secret).toBe(
    "whsec_second",
  );
  expect(await store.rotateWebhookSecret("acct_missing", "whsec_x", "2030-01-09T00:00:00.000Z")).toBe(false);
  expect(await store.webhookSecrets("acct_missing", "2030-01-02T00:00:00.000Z")).toBeNull();
});
