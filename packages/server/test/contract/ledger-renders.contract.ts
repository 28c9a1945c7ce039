import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CREDIT_GRANT } from "../../src/domain/accounts.ts";
import type { AssetRecord } from "../../src/ports/asset-store.ts";
import type { RenderRecord } from "../../src/ports/render-store.ts";
import {
  doc,
  newAccount,
  publishedTemplate,
  queuedRender,
  type StateFactory,
  type StateFixture,
  T0,
  T1,
  uid,
} from "./state-fixture.ts";

const id = uid;
/** Any 64-hex value: the stores record the hash they are given. */
const OUTPUT_SHA = "5e".repeat(32);

/** A render whose fields are not the builder's defaults where a store could mix them up. */
function makeRender(accountId: string, templateId: string, over: Partial<RenderRecord> = {}): RenderRecord {
  return queuedRender(accountId, templateId, {
    templateKey: "contract-card",
    scale: 1.5,
    format: "webp",
    quality: 80,
    width: 1800,
    height: 945,
    values: { title: "Grüße ✓", photo: "asset://ast_123", zeta: "last", alpha: "first" },
    metadata: { order: "42" },
    tags: ["b", "a"],
    webhookUrl: "https://example.com/hook",
    creditsCharged: 2,
    ...over,
  });
}

function makeAsset(render: RenderRecord): AssetRecord {
  return {
    id: id("ast"),
    accountId: render.accountId,
    folder: "renders/contract-card/",
    name: `${render.id}.webp`,
    contentType: "image/webp",
    byteSize: 1234,
    width: render.width,
    height: render.height,
    blobKey: `renders/${render.id}.webp`,
    token: randomBytes(16).toString("hex"),
    etag: `"${randomBytes(8).toString("hex")}"`,
    metadata: render.metadata,
    tags: render.tags,
    renderId: render.id,
    createdAt: T1,
  };
}

/**
 * What every Ledger + RenderStore adapter pair must do (SQLite, PostgreSQL). One database per suite;
 * each test works in its own accounts, so tests never see each other's balances.
 */
export function ledgerRendersContract(adapter: string, setup: StateFactory): void {
  describe(`Ledger + RenderStore contract: ${adapter}`, () => {
    let fx: StateFixture;
    beforeAll(async () => {
      fx = await setup();
    });
    afterAll(() => fx?.cleanup());

    /** An account holding `credits` (one "starting credits" grant), with template version 1 published. */
    async function funded(credits: number): Promise<{ accountId: string; templateId: string }> {
      const accountId = await newAccount(fx, credits);
      const templateId = await publishedTemplate(fx, accountId, DOCUMENT);
      return { accountId, templateId };
    }

    // Keys in an order a JSON store could rearrange; the round trip must keep it.
    const DOCUMENT = doc(uid("card"), { frames: [{ id: "main", width: 1200, height: 630 }] });

    describe("Ledger", () => {
      it("starts at zero and sums grants; entries come back in order with every field", async () => {
        const { accountId } = await funded(0);
        expect(await fx.ledger.balance(accountId)).toBe(0);
        await fx.ledger.grant(accountId, 30, "trial", T0);
        await fx.ledger.grant(accountId, 5, null, T1);
        expect(await fx.ledger.balance(accountId)).toBe(35);
        const entries = await fx.ledger.entries(accountId, { limit: 10, after: null });
        expect(entries.map(({ id: _, ...e }) => e)).toEqual([
          { kind: "grant", amount: 30, renderId: null, note: "trial", createdAt: T0 },
          { kind: "grant", amount: 5, renderId: null, note: null, createdAt: T1 },
        ]);
        expect(typeof entries[0]?.id).toBe("number");
      });

      it("pages entries by id", async () => {
        const { accountId } = await funded(0);
        for (let i = 1; i <= 5; i++) await fx.ledger.grant(accountId, i, `g${i}`, T0);
        const first = await fx.ledger.entries(accountId, { limit: 2, after: null });
        const rest = await fx.ledger.entries(accountId, { limit: 10, after: first.at(-1)?.id ?? null });
        expect(first.map((e) => e.note)).toEqual(["g1", "g2"]);
        expect(rest.map((e) => e.note)).toEqual(["g3", "g4", "g5"]);
      });

      it("pages entries newest first", async () => {
        const { accountId } = await funded(0);
        for (let i = 1; i <= 5; i++) await fx.ledger.grant(accountId, i, `g${i}`, T0);
        const page = { limit: 2, newestFirst: true };
        const first = await fx.ledger.entries(accountId, { ...page, after: null });
        const second = await fx.ledger.entries(accountId, { ...page, after: first.at(-1)?.id ?? null });
        const last = await fx.ledger.entries(accountId, { ...page, after: second.at(-1)?.id ?? null });
        expect([first, second, last].map((p) => p.map((e) => e.note))).toEqual([
          ["g5", "g4"],
          ["g3", "g2"],
          ["g1"],
        ]);
      });

      it("keeps accounts apart", async () => {
        const a = await funded(7);
        const b = await funded(3);
        expect(await fx.ledger.balance(a.accountId)).toBe(7);
        expect(await fx.ledger.balance(b.accountId)).toBe(3);
        expect(await fx.ledger.entries(b.accountId, { limit: 10, after: null })).toHaveLength(1);
      });

      it("refuses a grant that is not a whole number from 1 to MAX_CREDIT_GRANT", async () => {
        const { accountId } = await funded(0);
        for (const amount of [0, -5, 1.5, Number.NaN, 1e30, MAX_CREDIT_GRANT + 1]) {
          await expect(fx.ledger.grant(accountId, amount, null, T0)).rejects.toThrow(RangeError);
        }
        expect(await fx.ledger.balance(accountId)).toBe(0);
      });
    });

    describe("RenderStore", () => {
      it("accepts: charges once and stores the render as queued, field for field", async () => {
        const { accountId, templateId } = await funded(10);
        const render = makeRender(accountId, templateId);
        expect(await fx.renders.accept(render)).toEqual({ accepted: true });
        expect(await fx.renders.get(accountId, render.id)).toEqual(render);
        expect(Object.keys((await fx.renders.get(accountId, render.id))?.values ?? {})).toEqual(
          Object.keys(render.values),
        );
        expect(await fx.ledger.balance(accountId)).toBe(8);
        const charge = (await fx.ledger.entries(accountId, { limit: 10, after: null }))[1];
        expect(charge).toMatchObject({ kind: "charge", amount: -2, renderId: render.id, createdAt: T0 });
      });

      it("refuses a render the balance does not cover, and writes nothing", async () => {
        const { accountId, templateId } = await funded(1);
        const render = makeRender(accountId, templateId, { creditsCharged: 2 });
        expect(await fx.renders.accept(render)).toEqual({ accepted: false, balance: 1 });
        expect(await fx.renders.get(accountId, render.id)).toBeNull();
        expect((await fx.renders.pending()).map((p) => p.id)).not.toContain(render.id);
        expect(await fx.ledger.entries(accountId, { limit: 10, after: null })).toHaveLength(1);
      });

      it("never spends a credit twice under concurrent acceptances from two processes", async () => {
        const { accountId, templateId } = await funded(5);
        const renders = Array.from({ length: 12 }, () =>
          makeRender(accountId, templateId, { creditsCharged: 1 }),
        );
        const outcomes = await Promise.all(
          renders.map((r, i) => (i % 2 === 0 ? fx.renders : fx.other.renders).accept(r)),
        );
        expect(outcomes.filter((o) => o.accepted)).toHaveLength(5);
        for (const o of outcomes) if (!o.accepted) expect(o.balance).toBe(0);
        expect(await fx.ledger.balance(accountId)).toBe(0);
      });

      it("finds a render by the Idempotency-Key it was accepted under: its account's, newest, not before `since`", async () => {
        const { accountId, templateId } = await funded(10);
        const stranger = await funded(10);
        const older = makeRender(accountId, templateId, { idempotencyKey: "k-1", createdAt: T0 });
        const newer = makeRender(accountId, templateId, { idempotencyKey: "k-1", createdAt: T1 });
        const theirs = makeRender(stranger.accountId, templateId, { idempotencyKey: "k-1", createdAt: T1 });
        for (const r of [older, newer, theirs])
          expect(await fx.renders.accept(r)).toEqual({ accepted: true });
        expect((await fx.other.renders.findByIdempotencyKey(accountId, "k-1", T0))?.id).toBe(newer.id);
        expect((await fx.renders.findByIdempotencyKey(stranger.accountId, "k-1", T0))?.id).toBe(theirs.id);
        const afterBoth = new Date(Date.parse(T1) + 1).toISOString();
        expect(await fx.renders.findByIdempotencyKey(accountId, "k-1", afterBoth)).toBeNull();
        expect(await fx.renders.findByIdempotencyKey(accountId, "k-2", T0)).toBeNull();
      });

      it("shows a render to its own account only", async () => {
        const { accountId, templateId } = await funded(5);
        const stranger = await funded(0);
        const render = makeRender(accountId, templateId);
        await fx.renders.accept(render);
        expect(await fx.renders.get(stranger.accountId, render.id)).toBeNull();
        expect(await fx.renders.get(accountId, "rnd_missing")).toBeNull();
      });

      it("reads several of an account's renders at once, leaving out unknown ids and other accounts'", async () => {
        const { accountId, templateId } = await funded(5);
        const stranger = await funded(5);
        const [a, b] = [makeRender(accountId, templateId), makeRender(accountId, templateId)];
        const theirs = makeRender(stranger.accountId, stranger.templateId);
        for (const r of [a, b, theirs]) await fx.renders.accept(r);
        const found = await fx.renders.getMany(accountId, [b.id, "rnd_missing", theirs.id, a.id]);
        const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id);
        expect(found.sort(byId)).toEqual([a, b].sort(byId));
        expect(await fx.renders.getMany(accountId, [])).toEqual([]);
      });

      it("lists pending renders in acceptance order, claimed ones included, finished ones not", async () => {
        const { accountId, templateId } = await funded(10);
        const [a, b, c] = [0, 1, 2].map(() => makeRender(accountId, templateId, { creditsCharged: 1 })) as [
          RenderRecord,
          RenderRecord,
          RenderRecord,
        ];
        for (const r of [a, b, c]) await fx.renders.accept(r);
        await fx.renders.claim(b.id);
        await fx.renders.failAndRefund(c.id, { code: "render_failed", message: "boom" }, T1);
        const mine = (await fx.renders.pending())
          .map((p) => p.id)
          .filter((p) => [a.id, b.id, c.id].includes(p));
        expect(mine).toEqual([a.id, b.id]);
      });

      it("claims: marks rendering and hands over the pinned template version; null once finished", async () => {
        const { accountId, templateId } = await funded(10);
        const render = makeRender(accountId, templateId);
        await fx.renders.accept(render);
        const job = await fx.renders.claim(render.id);
        expect(job?.render).toEqual({ ...render, status: "rendering" });
        expect(job?.document).toEqual(DOCUMENT);
        expect(Object.keys(job?.document as object)).toEqual(Object.keys(DOCUMENT));
        // A redelivered job may claim a render still marked rendering (its worker died).
        expect((await fx.other.renders.claim(render.id))?.render.status).toBe("rendering");
        await fx.renders.complete(render.id, {
          asset: makeAsset(render),
          warnings: [],
          at: T1,
        });
        expect(await fx.renders.claim(render.id)).toBeNull();
        expect(await fx.renders.claim("rnd_missing")).toBeNull();
      });

      it("claims with the accepted record at hand exactly as without it; null once finished", async () => {
        const { accountId, templateId } = await funded(10);
        const render = makeRender(accountId, templateId);
        await fx.renders.accept(render);
        const job = await fx.renders.claim(render.id, render);
        expect(job?.render).toEqual({ ...render, status: "rendering" });
        expect(job?.document).toEqual(DOCUMENT);
        expect((await fx.other.renders.get(accountId, render.id))?.status).toBe("rendering");
        await fx.renders.complete(render.id, {
          asset: makeAsset(render),
          warnings: [],
          at: T1,
        });
        expect(await fx.renders.claim(render.id, render)).toBeNull();
      });

      it("accepts a render that starts at once as rendering; claiming it with its record writes nothing", async () => {
        const { accountId, templateId } = await funded(10);
        const render = { ...makeRender(accountId, templateId), status: "rendering" as const };
        expect((await fx.renders.accept(render)).accepted).toBe(true);
        expect((await fx.other.renders.get(accountId, render.id))?.status).toBe("rendering");
        expect(await fx.renders.pending()).toContainEqual({ id: render.id, accountId });
        const job = await fx.renders.claim(render.id, render);
        expect(job?.render).toEqual(render);
        expect(job?.document).toEqual(DOCUMENT);
      });

      it("completes with the output asset and warnings; a second completion changes nothing", async () => {
        const { accountId, templateId } = await funded(10);
        const render = makeRender(accountId, templateId);
        await fx.renders.accept(render);
        await fx.renders.claim(render.id);
        const asset = makeAsset(render);
        const warnings = [{ code: "text_truncated", slot: "title", message: "Shrunk to fit" }];
        await fx.renders.complete(render.id, { asset, warnings, at: T1 });
        await fx.other.renders.complete(render.id, {
          asset: makeAsset(render),
          warnings: [],
          at: T0,
        });
        expect(await fx.renders.get(accountId, render.id)).toEqual({
          ...render,
          status: "completed",
          assetId: asset.id,
          warnings,
          completedAt: T1,
        });
        // Completed without a hash: none is recorded.
        expect((await fx.library.get(accountId, asset.id))?.sha256).toBeNull();
        await fx.renders.failAndRefund(render.id, { code: "late", message: "too late" }, T1);
        expect((await fx.renders.get(accountId, render.id))?.status).toBe("completed");
        expect(await fx.ledger.balance(accountId)).toBe(8);
        // The output's hash comes with the completion, recorded like an upload's; identical outputs
        // are separate assets and do not collide as uploads would.
        const twins = [makeRender(accountId, templateId), makeRender(accountId, templateId)];
        for (const twin of twins) {
          await fx.renders.accept(twin);
          const twinAsset = makeAsset(twin);
          await fx.renders.complete(twin.id, { asset: twinAsset, warnings: [], at: T1, sha256: OUTPUT_SHA });
          expect((await fx.renders.get(accountId, twin.id))?.status).toBe("completed");
          expect((await fx.library.get(accountId, twinAsset.id))?.sha256).toBe(OUTPUT_SHA);
        }
        expect(await fx.library.findBySha256(accountId, OUTPUT_SHA)).toBeNull();
      });

      it("stores the completion callback in the outbox with the completion, never for a failure", async () => {
        const { accountId, templateId } = await funded(10);
        const done = makeRender(accountId, templateId);
        const failed = makeRender(accountId, templateId);
        for (const r of [done, failed]) await fx.renders.accept(r);
        const callback = (r: RenderRecord) => ({
          event_id: id("evt"),
          account_id: accountId,
          render_id: r.id,
          url: "https://example.com/hook",
          body: JSON.stringify({ render: r.id }),
          created_at: Date.parse(T1),
        });
        const event = callback(done);
        await fx.renders.complete(done.id, {
          asset: makeAsset(done),
          warnings: [],
          at: T1,
          callback: event,
        });
        await fx.other.renders.complete(done.id, {
          asset: makeAsset(done),
          warnings: [],
          at: T1,
          callback: callback(done),
        });
        await fx.renders.failAndRefund(failed.id, { code: "render_failed", message: "x" }, T1);
        expect(await fx.outbox.listAttempts(done.id)).toMatchObject({
          event_id: event.event_id,
          state: "pending",
        });
        expect(await fx.outbox.listAttempts(failed.id)).toBeNull();
      });

      it("fails and refunds exactly once, also when two processes race to do it", async () => {
        const { accountId, templateId } = await funded(10);
        const render = makeRender(accountId, templateId, { creditsCharged: 3 });
        await fx.renders.accept(render);
        await fx.renders.claim(render.id);
        const error = { code: "image_fetch_failed", message: "photo: 404" };
        await Promise.all([
          fx.renders.failAndRefund(render.id, error, T1),
          fx.other.renders.failAndRefund(render.id, error, T1),
          fx.renders.failAndRefund(render.id, error, T1),
        ]);
        expect(await fx.renders.get(accountId, render.id)).toEqual({
          ...render,
          status: "failed",
          error,
          creditsRefunded: 3,
          completedAt: T1,
        });
        expect(await fx.ledger.balance(accountId)).toBe(10);
        const kinds = (await fx.ledger.entries(accountId, { limit: 10, after: null })).map((e) => [
          e.kind,
          e.amount,
        ]);
        expect(kinds).toEqual([
          ["grant", 10],
          ["charge", -3],
          ["refund", 3],
        ]);
        await fx.renders.complete(render.id, {
          asset: makeAsset(render),
          warnings: [],
          at: T1,
        });
        expect((await fx.renders.get(accountId, render.id))?.status).toBe("failed");
      });

      it("fails a render that was never claimed (rejected at pickup) with the same single refund", async () => {
        const { accountId, templateId } = await funded(2);
        const render = makeRender(accountId, templateId);
        await fx.renders.accept(render);
        await fx.renders.failAndRefund(render.id, { code: "template_gone", message: "x" }, T1);
        expect(await fx.ledger.balance(accountId)).toBe(2);
      });
    });
  });
}
