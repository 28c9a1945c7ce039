import { afterAll, beforeAll, expect, it } from "vitest";
import { api, balanceOf, newAccount, publishTemplate } from "../api/support.ts";
import { type CallbackTestServer, startCallbackServer, tinyTemplate } from "../callbacks/support.ts";

// reliability-matrix: "batch with 0 rows, over the row limit, half its rows invalid" and "batch
// whose total exceeds the balance"; api-decisions: Idempotency-Key covers the whole batch.

let t: CallbackTestServer;
beforeAll(async () => {
  t = await startCallbackServer({ receivers: 0, workers: 1 });
});
afterAll(async () => {
  await t.close();
});

async function account(credits: number) {
  const { key } = await newAccount(t, credits);
  await publishTemplate(t, key, tinyTemplate());
  return key;
}

const row = (extra: Record<string, unknown> = {}) => ({ template: "tiny", modifications: [], ...extra });

it("0 rows is 400 invalid_request, 1,001 rows is 413 payload_too_large; nothing charged", async () => {
  const key = await account(5);
  const empty = await api(t, "POST", "/v1/renders/batch", { key, body: { renders: [] } });
  expect(empty.status).toBe(400);
  expect(empty.body.error.code).toBe("invalid_request");
  expect(empty.body.error.errors[0].path).toBe("renders");
  const tooMany = await api(t, "POST", "/v1/renders/batch", {
    key,
    body: { renders: Array.from({ length: 1001 }, () => row()) },
  });
  expect(tooMany.status).toBe(413);
  expect(tooMany.body.error.code).toBe("payload_too_large");
  expect(await balanceOf(t, key)).toBe(5);
});

it("a body over 10 MiB is 413; a 2 MiB batch (over the 1 MiB single limit) is accepted", async () => {
  const key = await account(10);
  const big = "x".repeat(9_000);
  const twoMiB = Array.from({ length: 230 }, () => row({ modifications: [{ name: "title", text: big }] }));
  // More rows than credits: the first 10 are charged, the rest are 402 per row.
  const ok = await api(t, "POST", "/v1/renders/batch", { key, body: { renders: twoMiB } });
  expect(ok.status).toBe(202);
  expect(JSON.stringify({ renders: twoMiB }).length).toBeGreaterThan(2 * 1024 * 1024 - 100_000);
  // 1,000 rows of 10,000 two-byte characters: about 20 MB on the wire, every row valid on its own.
  const huge = Array.from({ length: 1000 }, () =>
    row({ modifications: [{ name: "title", text: "é".repeat(10_000) }] }),
  );
  const refused = await api(t, "POST", "/v1/renders/batch", { key, body: { renders: huge } });
  expect(refused.status).toBe(413);
  expect(refused.body.error.code).toBe("payload_too_large");
});

it("rows are charged in order until the balance runs out; the rest are 402 per row with required/balance", async () => {
  const key = await account(5);
  const res = await api(t, "POST", "/v1/renders/batch", {
    key,
    body: { renders: [row(), row({ scale: 2 }), row({ scale: 2 }), row(), row()] },
  });
  expect(res.status).toBe(202);
  const outcomes = res.body.renders.map((r: { id?: string; error?: { code: string } }) =>
    r.id ? "charged" : r.error?.code,
  );
  // 1 + 4 = 5 credits; the second scale-2 row needs 4 and finds 0; the scale-1 rows after it too.
  expect(outcomes).toEqual([
    "charged",
    "charged",
    "insufficient_credits",
    "insufficient_credits",
    "insufficient_credits",
  ]);
  expect(res.body.renders[2].error).toMatchObject({ required: 4, balance: 0 });
  expect(await balanceOf(t, key)).toBe(0);
});

it("malformed rows fail alone with the row's JSON path; unknown template is 404 per row", async () => {
  const key = await account(10);
  const res = await api(t, "POST", "/v1/renders/batch", {
    key,
    body: {
      renders: [
        row(),
        "not an object",
        row({ modifications: [{ name: "bg", color: "red" }] }),
        row({ colour: "#fff" }),
        row({ template: "nope" }),
        row({ wait: true }),
        row(),
      ],
    },
  });
  expect(res.status).toBe(202);
  const [first, notObject, badColor, unknownField, unknownTemplate, waitRow, last] = res.body.renders;
  expect(first.status).toBe("queued");
  expect(notObject.error).toMatchObject({ code: "invalid_request", errors: [{ path: "renders[1]" }] });
  expect(badColor.error).toMatchObject({
    code: "invalid_request",
    errors: [{ path: "renders[2].modifications[0].color" }],
  });
  expect(unknownField.error.code).toBe("invalid_request");
  expect(unknownTemplate.error.code).toBe("not_found");
  expect(waitRow.error.code).toBe("invalid_request");
  expect(last.status).toBe("queued");
  expect(await balanceOf(t, key)).toBe(8);
});

it("Idempotency-Key covers the whole batch: the replay returns the same batch and charges once", async () => {
  const key = await account(10);
  const body = { renders: [row(), row(), row()] };
  const headers = { "idempotency-key": "batch-key-1" };
  const first = await api(t, "POST", "/v1/renders/batch", { key, body, headers });
  const second = await api(t, "POST", "/v1/renders/batch", { key, body, headers });
  expect(first.status).toBe(202);
  expect(second.status).toBe(202);
  expect(second.headers.get("idempotent-replayed")).toBe("true");
  expect(second.body.batch_id).toBe(first.body.batch_id);
  expect(await balanceOf(t, key)).toBe(7);
  const reused = await api(t, "POST", "/v1/renders/batch", { key, body: { renders: [row()] }, headers });
  expect(reused.status).toBe(422);
  expect(reused.body.error.code).toBe("idempotency_key_reused");
});

it("batch metadata is every row's default (row keys win) and GET /v1/batches/:id reports it", async () => {
  const key = await account(10);
  const res = await api(t, "POST", "/v1/renders/batch", {
    key,
    body: {
      metadata: { campaign: "c1", lang: "en" },
      renders: [row({ metadata: { lang: "fr" } }), row()],
    },
  });
  expect(res.body.renders[0].metadata).toEqual({ campaign: "c1", lang: "fr" });
  expect(res.body.renders[1].metadata).toEqual({ campaign: "c1", lang: "en" });
  const batch = await api(t, "GET", `/v1/batches/${res.body.batch_id}`, { key });
  expect(batch.status).toBe(200);
  expect(batch.body).toMatchObject({ id: res.body.batch_id, metadata: { campaign: "c1", lang: "en" } });
  expect(batch.body.counts.rows).toBe(2);
  expect(batch.body.renders.map((r: { id: string }) => r.id)).toEqual(
    res.body.renders.map((r: { id: string }) => r.id),
  );
});
