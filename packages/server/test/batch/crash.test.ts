import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSqliteBatchStore } from "../../src/adapters/sqlite/batch-store.ts";
import { createRenderService } from "../../src/app/render-service.ts";
import { requestFingerprint } from "../../src/http/plugins/idempotency.ts";
import { checkBatchRow } from "../../src/http/routes/batch-row-shape.ts";
import type { BatchStore } from "../../src/ports/batch-store.ts";
import type { RenderDispatcher } from "../../src/ports/render-dispatcher.ts";
import { api, newAccount, publishTemplate } from "../api/support.ts";
import { testBackend } from "../api-pg/backend.ts";
import { type CallbackTestServer, startCallbackServer, tinyTemplate } from "../callbacks/support.ts";

// A process killed mid-accept (issue 4 follow-up): the batch is accepted through the real stores of
// a second connection (as another process would), with a fault injected at the RenderDispatcher port that
// stops the acceptance dead at one row, exactly where a SIGKILL would: nothing after it runs. The
// running server then answers GET /v1/batches/:id from what was committed.

let t: CallbackTestServer;
beforeAll(async () => {
  t = await startCallbackServer({ receivers: 0, workers: 1 });
});
afterAll(async () => {
  await t.close();
});

class Killed extends Error {}

/** Where the process dies on row `at`: just after its charge commits, or while it is being charged. */
type KillPoint = { at: number; when: "after-charge" | "before-charge" };

/** Starts a batch of `rows` rows (row 2 is refused: bad scale) that dies at `kill`; returns its id. */
async function acceptUntilKilled(
  accountId: string,
  rows: number,
  kill: KillPoint,
  createdAt: Date,
  idempotencyKey?: string,
): Promise<string> {
  let row = -1;
  // Charges and records as a dispatcher does, and dispatches nothing: the process dies before that.
  const dispatcher: RenderDispatcher = {
    hasRoom: () => true,
    async submit(render) {
      row += 1;
      // Row 2 is refused before its charge, so charges after it belong to the row one further on.
      const index = row >= 2 ? row + 1 : row;
      if (index === kill.at && kill.when === "before-charge") throw new Killed();
      const outcome = await t.data.renders.accept(render);
      if (index === kill.at) throw new Killed();
      return outcome.accepted ? { accepted: true, render } : outcome;
    },
    wait: async () => null,
  };
  let batchId = "";
  const store = batchStore();
  const batches: BatchStore = Object.create(store);
  batches.begin = async (header) => {
    batchId = header.id;
    return store.begin(header);
  };
  const service = createRenderService({
    templates: t.data.templates,
    assets: t.data.assets,
    renders: t.data.renders,
    batches,
    idempotency: t.data.idempotency,
    clock: { now: () => createdAt },
    checkUrl: async () => ({ ok: true }),
    dispatcher,
  });
  await expect(
    service.submitBatch(
      accountId,
      { renders: batchRows(rows).map(checkBatchRow) },
      idempotencyKey ? { idempotencyKey } : {},
    ),
  ).rejects.toBeInstanceOf(Killed);
  return batchId;
}

/** The rows of every batch here: row 2 is refused (bad scale), the others are charged 1 credit. */
const batchRows = (rows: number) =>
  Array.from({ length: rows }, (_, i) => ({
    template: "tiny",
    modifications: [],
    ...(i === 2 ? { scale: 9 } : {}),
  }));

/** The data dir holds no BatchStore on the embedded default (the server builds its own on data.db). */
const batchStore = (): BatchStore =>
  testBackend() === "sqlite"
    ? createSqliteBatchStore(t.data.db)
    : (t.data as unknown as { batches: BatchStore }).batches;

async function setup(credits: number) {
  const { accountId, key } = await newAccount(t, credits);
  await publishTemplate(t, key, tinyTemplate());
  return { accountId, key };
}

const chargedRenders = (accountId: string): string[] =>
  (
    t.data.db.prepare("SELECT id FROM renders WHERE account_id = ? ORDER BY id").all(accountId) as {
      id: string;
    }[]
  )
    .map((r) => String(r.id))
    .sort();

const sixMinutesAgo = () => new Date(Date.now() - 6 * 60_000);

it("killed right after a row's charge commits: every charged render, that row's included, is listed by its batch", async () => {
  const { accountId, key } = await setup(100);
  const batchId = await acceptUntilKilled(accountId, 10, { at: 6, when: "after-charge" }, sixMinutesAgo());

  const charged = chargedRenders(accountId);
  expect(charged).toHaveLength(6); // rows 0, 1, 3, 4, 5, 6
  // The caller never got the batch id; the listing finds it.
  const list = await api(t, "GET", "/v1/batches", { key });
  expect(list.body.data).toMatchObject([{ id: batchId, state: "interrupted", rows_submitted: 10 }]);
  const res = await api(t, "GET", `/v1/batches/${batchId}`, { key });
  expect(res.status).toBe(200);
  expect(res.body.state).toBe("interrupted");
  expect(res.body.rows_submitted).toBe(10);
  const listed = res.body.renders as { index: number; id?: string; error?: { code: string } }[];
  expect(listed.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  expect(listed.flatMap((r) => (r.id ? [r.id] : [])).sort()).toEqual(charged);
  expect(listed[2]?.error?.code).toBe("invalid_scale");
  expect(res.body.counts).toMatchObject({ rows: 7, refused: 1 });
});

it("killed while a row is being charged: that row is reported not charged, every earlier charge is listed", async () => {
  const { accountId, key } = await setup(100);
  const batchId = await acceptUntilKilled(accountId, 10, { at: 4, when: "before-charge" }, sixMinutesAgo());

  const charged = chargedRenders(accountId);
  expect(charged).toHaveLength(3); // rows 0, 1, 3
  expect((await api(t, "GET", "/v1/account", { key })).body.credits_balance).toBe(97);
  const res = await api(t, "GET", `/v1/batches/${batchId}`, { key });
  expect(res.body.state).toBe("interrupted");
  const listed = res.body.renders as { index: number; id?: string; error?: { code: string } }[];
  expect(listed.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
  expect(listed.flatMap((r) => (r.id ? [r.id] : [])).sort()).toEqual(charged);
  expect(listed[4]?.error?.code).toBe("not_accepted");
  expect(res.body.counts).toMatchObject({ rows: 5, refused: 2 });
});

it("a batch whose process just died reads as accepting, with the rows recorded so far", async () => {
  const { accountId, key } = await setup(100);
  const batchId = await acceptUntilKilled(accountId, 10, { at: 3, when: "before-charge" }, new Date());

  const res = await api(t, "GET", `/v1/batches/${batchId}`, { key });
  expect(res.body.state).toBe("accepting");
  // Row 3's reservation has no render yet: while accepting it is the row in flight, not listed.
  expect((res.body.renders as { index: number }[]).map((r) => r.index)).toEqual([0, 1, 2]);
  expect(res.body.counts.rows).toBe(3);
});

it("a batch accepted whole reads as accepted, every row listed", async () => {
  const { key } = await setup(10);
  const res = await api(t, "POST", "/v1/renders/batch", {
    key,
    body: { renders: [{ template: "tiny" }, { template: "tiny", scale: 9 }] },
  });
  expect(res.status).toBe(202);
  const got = await api(t, "GET", `/v1/batches/${res.body.batch_id}`, { key });
  expect(got.body.state).toBe("accepted");
  expect(got.body.rows_submitted).toBe(2);
  expect(got.body.counts.rows).toBe(2);
});

it("a retry with the Idempotency-Key of a batch killed mid-accept completes that batch, charging no row twice", async () => {
  const { accountId, key } = await setup(100);
  const idempotencyKey = `batch-${accountId}`;
  const createdAt = sixMinutesAgo();
  // Killed while charging row 6: rows 0, 1, 3, 4, 5 charged, row 2 refused, row 6 reserved (not
  // charged), rows 7 to 9 never reached.
  const batchId = await acceptUntilKilled(
    accountId,
    10,
    { at: 6, when: "before-charge" },
    createdAt,
    idempotencyKey,
  );
  const chargedBefore = chargedRenders(accountId);
  expect(chargedBefore).toHaveLength(5);
  // What the killed request left of its key: claimed when the batch began, never answered, its
  // lock long expired.
  const body = { renders: batchRows(10) };
  const fingerprint = requestFingerprint({
    method: "POST",
    url: "/v1/renders/batch",
    routeOptions: { url: "/v1/renders/batch" },
    body,
  } as unknown as FastifyRequest);
  const claimedAt = createdAt.getTime() - 1000;
  await t.data.idempotency.begin({ accountId, key: idempotencyKey }, fingerprint, claimedAt, {
    ttlMs: 24 * 3600_000,
    lockTimeoutMs: 5 * 60_000,
  });

  const retry = await api(t, "POST", "/v1/renders/batch", {
    key,
    body,
    headers: { "idempotency-key": idempotencyKey },
  });
  expect(retry.status).toBe(202);
  expect(retry.body.batch_id).toBe(batchId);
  const rows = retry.body.renders as { index: number; id?: string; error?: { code: string } }[];
  expect(rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(rows[2]?.error?.code).toBe("invalid_scale");
  const charged = chargedRenders(accountId);
  expect(charged).toHaveLength(9);
  // The renders charged before the crash are the same rows' renders now: not charged again.
  expect(rows.flatMap((r) => (r.id ? [r.id] : [])).sort()).toEqual(charged);
  expect(chargedBefore.every((id) => charged.includes(id))).toBe(true);
  expect((await api(t, "GET", "/v1/account", { key })).body.credits_balance).toBe(91);
  const stored = await api(t, "GET", `/v1/batches/${batchId}`, { key });
  expect(stored.body).toMatchObject({
    state: "accepted",
    rows_submitted: 10,
    counts: { rows: 10, refused: 1 },
  });
  // The answer is stored under the key now: one more retry is a replay.
  const replay = await api(t, "POST", "/v1/renders/batch", {
    key,
    body,
    headers: { "idempotency-key": idempotencyKey },
  });
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
  expect(replay.body.batch_id).toBe(batchId);
  expect(chargedRenders(accountId)).toHaveLength(9);
});
