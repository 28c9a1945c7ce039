import { afterAll, beforeAll, expect, it } from "vitest";
import { createSqliteBatchStore } from "../../src/adapters/sqlite/batch-store.ts";
import { createRenderService } from "../../src/app/render-service.ts";
import { checkBatchRow } from "../../src/http/routes/batch-row-shape.ts";
import type { BatchStore } from "../../src/ports/batch-store.ts";
import type { RenderDispatcher } from "../../src/ports/render-dispatcher.ts";
import {
  api,
  balanceOf,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  testTemplate,
} from "../api/support.ts";
import { testBackend } from "../api-pg/backend.ts";

// Issue 33 item 8: batch rows carry their own idempotency key (`idempotency_key`), kept as long as
// Idempotency-Key header keys (24 h). A row whose key names a render accepted earlier with the same
// row is answered with that render, charging nothing; with another row, that row alone is refused.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const row = (title: string, key?: string, extra: Record<string, unknown> = {}) => ({
  template: "card",
  modifications: [{ name: "title", text: title }],
  ...(key !== undefined ? { idempotency_key: key } : {}),
  ...extra,
});

const batch = (key: string, renders: unknown[], extra: Record<string, unknown> = {}) =>
  api(t, "POST", "/v1/renders/batch", { key, body: { renders, ...extra } });

async function account(credits = 100) {
  const created = await newAccount(t, credits);
  await publishTemplate(t, created.key, testTemplate("card"));
  return created;
}

it("the same key with the same row, in a later batch: the render accepted first, replayed, nothing charged", async () => {
  const { key } = await account();
  const first = await batch(key, [row("One", "row-1"), row("Two", "row-2"), row("Unkeyed")]);
  expect(first.status).toBe(202);
  expect(first.body.renders.map((r: { replayed?: boolean }) => r.replayed)).toEqual([
    undefined,
    undefined,
    undefined,
  ]);
  const [one, two] = first.body.renders as { id: string; credits_charged: number }[];
  expect(await balanceOf(t, key)).toBe(97);

  // Another batch, other chunking and order, a new row between them: only the new row is charged.
  const again = await batch(key, [row("Three", "row-3"), row("Two", "row-2"), row("One", "row-1")]);
  expect(again.status).toBe(202);
  expect(again.body.batch_id).not.toBe(first.body.batch_id);
  const [three, twoAgain, oneAgain] = again.body.renders;
  expect(three).toMatchObject({ index: 0, status: "queued", credits_charged: 1 });
  expect(three.replayed).toBeUndefined();
  expect(twoAgain).toMatchObject({ index: 1, id: two?.id, replayed: true, credits_charged: 1 });
  expect(oneAgain).toMatchObject({ index: 2, id: one?.id, replayed: true });
  expect(await balanceOf(t, key)).toBe(96);

  // The new batch lists the replayed rows under the renders they name.
  const listed = await api(t, "GET", `/v1/batches/${again.body.batch_id}`, { key });
  expect(listed.body.renders.map((r: { id: string }) => r.id)).toEqual([three.id, two?.id, one?.id]);
  expect(listed.body.counts.rows).toBe(3);

  // The same key twice in one batch: the second row is the first's render.
  const twice = await batch(key, [row("Four", "row-4"), row("Four", "row-4")]);
  expect(twice.body.renders[1]).toMatchObject({ id: twice.body.renders[0].id, replayed: true });
  expect(await balanceOf(t, key)).toBe(95);

  // The row as accepted is what the key is bound to, whatever the order of its fields.
  const reordered = await batch(key, [
    { idempotency_key: "row-1", modifications: [{ text: "One", name: "title" }], template: "card" },
  ]);
  expect(reordered.body.renders[0]).toMatchObject({ id: one?.id, replayed: true });
  expect(await balanceOf(t, key)).toBe(95);
});

it("the same key with another row: that row is refused (idempotency_key_reused), the others proceed", async () => {
  const { key } = await account();
  const first = await batch(key, [row("One", "k-1")]);
  const firstId = first.body.renders[0].id as string;
  expect(await balanceOf(t, key)).toBe(99);

  const changed = await batch(key, [row("Edited", "k-1"), row("Other", "k-2")]);
  expect(changed.status).toBe(202);
  expect(changed.body.renders[0]).toEqual({
    index: 0,
    error: {
      code: "idempotency_key_reused",
      message: "renders[0].idempotency_key was already used with a different row in the last 24 hours.",
      errors: [{ path: "renders[0].idempotency_key", message: "used with another row" }],
    },
  });
  expect(changed.body.renders[1]).toMatchObject({ index: 1, status: "queued", credits_charged: 1 });
  expect(await balanceOf(t, key)).toBe(98);

  // Other options are part of the row too (scale), and so is the batch's metadata merged into it.
  const scaled = await batch(key, [row("One", "k-1", { scale: 2 })]);
  expect(scaled.body.renders[0].error.code).toBe("idempotency_key_reused");
  const withMetadata = await batch(key, [row("One", "k-1")], { metadata: { campaign: "spring" } });
  expect(withMetadata.body.renders[0].error.code).toBe("idempotency_key_reused");
  // Within one batch as well: the second row under a key the first took.
  const inOne = await batch(key, [row("Five", "k-5"), row("Six", "k-5")]);
  expect(inOne.body.renders[0].status).toBe("queued");
  expect(inOne.body.renders[1].error.code).toBe("idempotency_key_reused");
  expect(await balanceOf(t, key)).toBe(97);

  // The first row under the key still answers with its render.
  const same = await batch(key, [row("One", "k-1")]);
  expect(same.body.renders[0]).toMatchObject({ id: firstId, replayed: true });
  expect(await balanceOf(t, key)).toBe(97);
});

it("row keys and Idempotency-Key header values are separate: the same string in both is two keys", async () => {
  const { key } = await account();
  const single = await api(t, "POST", "/v1/renders", {
    key,
    body: row("Single"),
    headers: { "idempotency-key": "shared-1" },
  });
  expect(single.status).toBe(202);
  const rows = await batch(key, [row("Row", "shared-1")]);
  expect(rows.body.renders[0].status).toBe("queued");
  expect(rows.body.renders[0].id).not.toBe(single.body.id);
  expect(rows.body.renders[0].replayed).toBeUndefined();
  // And the header key still replays its own render, not the row's.
  const retried = await api(t, "POST", "/v1/renders", {
    key,
    body: row("Single"),
    headers: { "idempotency-key": "shared-1" },
  });
  expect(retried.headers.get("idempotent-replayed")).toBe("true");
  expect(retried.body.id).toBe(single.body.id);
  expect(await balanceOf(t, key)).toBe(98);
  // Another account's rows never see this account's keys.
  const other = await account();
  const theirs = await batch(other.key, [row("Row", "shared-1")]);
  expect(theirs.body.renders[0].replayed).toBeUndefined();
  expect(await balanceOf(t, other.key)).toBe(99);
});

it("a refused row leaves its key free: sent again after a grant, it is accepted and charged once", async () => {
  const { key, accountId } = await account(1);
  const poor = await batch(key, [row("A", "a"), row("B", "b")]);
  expect(poor.body.renders[0].status).toBe("queued");
  expect(poor.body.renders[1].error.code).toBe("insufficient_credits");
  await t.data.ledger.grant(accountId, 5, null, new Date().toISOString());
  const again = await batch(key, [row("A", "a"), row("B", "b")]);
  expect(again.body.renders[0]).toMatchObject({ id: poor.body.renders[0].id, replayed: true });
  expect(again.body.renders[1]).toMatchObject({ status: "queued", credits_charged: 1 });
  expect(again.body.renders[1].replayed).toBeUndefined();
  expect(await balanceOf(t, key)).toBe(4);
});

it("a malformed row key refuses that row alone, with its path", async () => {
  const { key } = await account();
  const res = await batch(key, [
    row("Bad", "has space"),
    row("Long", "x".repeat(256)),
    { ...row("Number"), idempotency_key: 7 },
    row("Good", "good"),
  ]);
  expect(res.status).toBe(202);
  for (const i of [0, 1, 2]) {
    expect(res.body.renders[i].error).toMatchObject({
      code: "invalid_request",
      errors: [{ path: `renders[${i}].idempotency_key`, message: "is malformed" }],
    });
  }
  expect(res.body.renders[3].status).toBe("queued");
  expect(await balanceOf(t, key)).toBe(99);
  // A single render does not take the field: it is a batch row's.
  const single = await api(t, "POST", "/v1/renders", { key, body: row("Single", "good") });
  expect(single.status).toBe(400);
});

it("a keyed row charged by a request that then failed: sent again, it gets that render, not a second charge", async () => {
  const { key, accountId } = await account();
  // The request dies on our side just after the row's charge commits (a database fault, say).
  const batches: BatchStore =
    testBackend() === "sqlite"
      ? createSqliteBatchStore(t.data.db)
      : (t.data as unknown as { batches: BatchStore }).batches;
  const failing: RenderDispatcher = {
    hasRoom: () => true,
    async submit(render) {
      await t.data.renders.accept(render);
      throw new Error("connection lost after the charge");
    },
    wait: async () => null,
  };
  const service = createRenderService({
    templates: t.data.templates,
    assets: t.data.assets,
    renders: t.data.renders,
    batches,
    idempotency: t.data.idempotency,
    clock: { now: () => new Date() },
    checkUrl: async () => ({ ok: true }),
    dispatcher: failing,
  });
  await expect(
    service.submitBatch(accountId, { renders: [row("Lost", "lost-1")].map(checkBatchRow) }, {}),
  ).rejects.toThrow("connection lost after the charge");
  expect(await balanceOf(t, key)).toBe(99);

  // The retry (through the server) finds the render the failed request charged, at once.
  const retried = await batch(key, [row("Lost", "lost-1")]);
  expect(retried.body.renders[0]).toMatchObject({ replayed: true, credits_charged: 1 });
  const charged = await api(t, "GET", `/v1/renders/${retried.body.renders[0].id}`, { key });
  expect(charged.status).toBe(200);
  expect(await balanceOf(t, key)).toBe(99);
  // And from then on the key is settled: replayed again, still one charge.
  const third = await batch(key, [row("Lost", "lost-1")]);
  expect(third.body.renders[0]).toMatchObject({ id: retried.body.renders[0].id, replayed: true });
  expect(await balanceOf(t, key)).toBe(99);
});
