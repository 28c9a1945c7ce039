import { randomBytes } from "node:crypto";
import type { TemplateDocumentT } from "../../src/domain/document.ts";
import type { AccountStore, WebhookSecretStore } from "../../src/ports/account-store.ts";
import type { AssetLibrary } from "../../src/ports/asset-library.ts";
import type { AssetStore } from "../../src/ports/asset-store.ts";
import type { BatchStore } from "../../src/ports/batch-store.ts";
import type { IdempotencyStore } from "../../src/ports/idempotency-store.ts";
import type { ImageUrlStore } from "../../src/ports/image-url-store.ts";
import type { Ledger } from "../../src/ports/ledger.ts";
import type { RenderLookups } from "../../src/ports/render-lookups.ts";
import type { RenderRecord, RenderStore } from "../../src/ports/render-store.ts";
import type { TemplateStore } from "../../src/ports/template-store.ts";
import type { WebhookOutbox } from "../../src/ports/webhook-outbox.ts";

/** Every state port of one adapter family (SQLite, PostgreSQL), on one database. */
export interface StateStores {
  accounts: AccountStore;
  templates: TemplateStore;
  assets: AssetStore;
  ledger: Ledger;
  renders: RenderStore;
  idempotency: IdempotencyStore;
  secrets: WebhookSecretStore;
  batches: BatchStore;
  outbox: WebhookOutbox;
  library: AssetLibrary;
  imageUrls: ImageUrlStore;
}

export interface StateFixture extends StateStores {
  /** A second, independent connection to the same database, as another process would open it. */
  other: StateStores;
  /** A render thread's lookups, on a connection of their own as a render thread opens them. */
  lookups: RenderLookups;
  cleanup(): Promise<void>;
}

export type StateFactory = () => Promise<StateFixture>;

export const T0 = "2026-11-22T12:00:00.000Z";
export const T1 = "2026-11-22T12:00:05.250Z";
export const T2 = "2026-11-22T12:01:00.000Z";

export const uid = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;

/** Adapters store documents without looking inside, so any JSON with `key` and `name` will do. */
export const doc = (key: string, extra: Record<string, unknown> = {}) =>
  ({ key, name: `Template ${key}`, z: 1, a: [1, { y: 2, b: 3 }], ...extra }) as unknown as TemplateDocumentT;

/** A fresh account (with its first key and `credits` starting credits) through the AccountStore port. */
export async function newAccount(stores: Pick<StateStores, "accounts">, credits: number): Promise<string> {
  const id = uid("acc");
  await stores.accounts.create({
    account: { id, name: "contract", createdAt: T0 },
    webhookSecret: `whsec_${randomBytes(8).toString("hex")}`,
    key: { id: uid("key"), hash: new Uint8Array(randomBytes(32)), prefix: "sk_test_abc", name: null },
    grant: credits,
  });
  return id;
}

/** A template with version 1 published, through the TemplateStore port. */
export async function publishedTemplate(
  stores: Pick<StateStores, "templates">,
  accountId: string,
  document = doc(uid("tpl")),
) {
  const id = uid("tpl");
  const key = (document as unknown as { key: string }).key;
  const inserted = await stores.templates.insert({
    id,
    accountId,
    key,
    name: `Template ${key}`,
    draft: document,
    publishedVersion: null,
    archivedAt: null,
    createdAt: T0,
    updatedAt: T0,
  });
  if (!inserted) throw new Error(`template key ${key} already used`);
  await stores.templates.publish(accountId, id, T0);
  return id;
}

/** A queued 10x10 PNG render of version 1 of `templateId`, charged 1 credit, made at T0; `over` sets the rest. */
export const queuedRender = (
  accountId: string,
  templateId: string,
  over: Partial<RenderRecord> = {},
): RenderRecord => ({
  id: uid("rnd"),
  accountId,
  templateId,
  templateKey: "contract",
  templateVersion: 1,
  frame: "main",
  frames: null,
  dpi: null,
  scale: 1,
  format: "png",
  quality: null,
  width: 10,
  height: 10,
  values: {},
  metadata: {},
  tags: [],
  webhookUrl: null,
  status: "queued",
  creditsCharged: 1,
  creditsRefunded: 0,
  error: null,
  warnings: [],
  assetId: null,
  createdAt: T0,
  completedAt: null,
  ...over,
});
