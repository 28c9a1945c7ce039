import { afterAll, beforeAll, expect, it } from "vitest";
import { api, balanceOf, newAccount, publishTemplate } from "../api/support.ts";
import {
  bodiesByRender,
  type CallbackTestServer,
  startCallbackServer,
  tinyTemplate,
} from "../callbacks/support.ts";

// Issue 4 acceptance: a 1,000-row batch with 50 invalid rows. Real HTTP on loopback, real render
// workers, real receivers; signatures checked by @octokit/webhooks-methods and by verifyCallback.

let t: CallbackTestServer;
beforeAll(async () => {
  t = await startCallbackServer({ receivers: 2, workers: 2 });
});
afterAll(async () => {
  await t.close();
});

type Expected = "ok" | "unknown_slot" | "invalid_scale" | "invalid_webhook_url" | "image_fetch_failed";

/** Which row gets which fault: spread through the batch so failing rows sit between good ones. */
function kindOf(index: number): Expected {
  if (index % 20 !== 7) return "ok";
  return (["unknown_slot", "invalid_scale", "invalid_webhook_url", "image_fetch_failed"] as const)[
    Math.floor(index / 20) % 4
  ] as Expected;
}

it("1,000 rows, 50 invalid: 950 render and are charged, each outcome reported, every callback at the right receiver", async () => {
  const [batchReceiver, rowReceiver] = t.receivers as [
    CallbackTestServer["receivers"][0],
    CallbackTestServer["receivers"][0],
  ];
  const { key, accountId } = await newAccount(t, 1000);
  const secret = (await api(t, "GET", "/v1/webhook-secret", { key })).body.secret as string;
  t.secrets.push(secret);
  await publishTemplate(t, key, tinyTemplate());

  const privateUrls = ["http://10.0.0.1/hook", "http://169.254.169.254/latest", "http://[::1]/hook"];
  const rows = Array.from({ length: 1000 }, (_, index) => {
    const kind = kindOf(index);
    const row: Record<string, unknown> = {
      template: "tiny",
      modifications: [{ name: "title", text: `row ${index}` }],
      metadata: { row: String(index) },
    };
    // Every third good row names its own receiver (row-level wins), the others use the batch's.
    if (kind === "ok" && index % 3 === 0) row.webhook_url = rowReceiver.url(`/row/${index}`);
    if (kind === "unknown_slot") row.modifications = [{ name: "subtitle", text: "no such slot" }];
    if (kind === "invalid_scale") row.scale = [0, 5, "2", null][index % 4];
    if (kind === "invalid_webhook_url") row.webhook_url = privateUrls[index % privateUrls.length];
    if (kind === "image_fetch_failed") {
      row.modifications = [{ name: "photo", image_url: `http://127.0.0.1:${t.deadPort}/photo.png` }];
    }
    return row;
  });
  const kinds = rows.map((_, i) => kindOf(i));
  const count = (k: Expected) => kinds.filter((x) => x === k).length;
  expect(count("ok")).toBe(950);
  expect(1000 - count("ok")).toBe(50);

  const res = await api(t, "POST", "/v1/renders/batch", {
    key,
    body: { webhook_url: batchReceiver.url("/batch"), metadata: { campaign: "acceptance" }, renders: rows },
  });
  expect(res.status).toBe(202);
  expect(res.body.batch_id).toMatch(/^bat_/);
  expect(res.headers.get("location")).toBe(`/v1/batches/${res.body.batch_id}`);
  const results = res.body.renders as {
    index: number;
    id?: string;
    status?: string;
    webhook_url?: string;
    metadata?: Record<string, string>;
    error?: { code: string; message: string; slot?: string; errors?: { path: string }[] };
  }[];
  expect(results.map((r) => r.index)).toEqual(rows.map((_, i) => i));

  // Each row's outcome, at submission.
  const accepted = new Map<string, number>();
  for (const [index, result] of results.entries()) {
    const kind = kinds[index];
    if (kind === "ok" || kind === "image_fetch_failed") {
      expect(result.error, `row ${index}`).toBeNull();
      expect(result.status).toBe("queued");
      expect(result.metadata).toEqual({ campaign: "acceptance", row: String(index) });
      accepted.set(result.id as string, index);
    } else {
      expect(result.id, `row ${index}`).toBeUndefined();
      expect(result.error?.code, `row ${index}`).toBe(kind);
    }
    if (kind === "unknown_slot") expect(result.error?.slot).toBe("subtitle");
    if (kind === "invalid_scale") expect(result.error?.errors?.[0]?.path).toBe(`renders[${index}].scale`);
  }
  // Charged at acceptance: the 950 good rows and the 12 unreachable-image rows; nothing for the 38.
  // Read from the ledger, not the balance: an unreachable-image row may already be refunded by now.
  expect(accepted.size).toBe(950 + count("image_fetch_failed"));
  const charges = t.data.db
    .prepare(
      "SELECT COUNT(*) AS n, SUM(amount) AS total FROM ledger WHERE account_id = ? AND kind = 'charge'",
    )
    .get(accountId) as { n: number | string; total: number | string };
  expect(Number(charges.n)).toBe(accepted.size);
  expect(Number(charges.total)).toBe(-accepted.size);

  // Every good row's callback: row-level URL to the row receiver, the rest to the batch receiver.
  const expectRow = count("ok") - kinds.filter((k, i) => k === "ok" && i % 3 !== 0).length;
  const expectBatch = count("ok") - expectRow;
  await Promise.all([batchReceiver.waitForRequest(expectBatch), rowReceiver.waitForRequest(expectRow)]);

  const batch = await untilBatchSettled(key, res.body.batch_id);
  expect(batch.counts).toEqual({
    rows: 1000,
    refused: 50 - count("image_fetch_failed"),
    queued: 0,
    rendering: 0,
    completed: 950,
    failed: count("image_fetch_failed"),
  });
  // The unreachable-image rows were refunded: 950 charged in the end.
  expect(await balanceOf(t, key)).toBe(1000 - 950);
  for (const row of batch.renders as { index: number; status?: string; error?: { code: string } }[]) {
    const kind = kinds[row.index];
    if (kind === "ok") expect(row.status).toBe("completed");
    else if (kind === "image_fetch_failed")
      expect(row).toMatchObject({ status: "failed", error: { code: kind } });
    else expect(row.error?.code).toBe(kind);
  }

  const atBatch = bodiesByRender(batchReceiver);
  const atRow = bodiesByRender(rowReceiver);
  for (const [id, index] of accepted) {
    const kind = kinds[index];
    const wantRow = kind === "ok" && index % 3 === 0;
    if (kind !== "ok") {
      // Failed renders are never delivered.
      expect(atBatch.has(id) || atRow.has(id), `render ${id}`).toBe(false);
      continue;
    }
    expect(
      (wantRow ? atRow : atBatch).get(id)?.length,
      `render ${id} at its receiver`,
    ).toBeGreaterThanOrEqual(1);
    expect((wantRow ? atBatch : atRow).has(id), `render ${id} at the other receiver`).toBe(false);
  }
  for (const callback of [...batchReceiver.received, ...rowReceiver.received]) {
    expect(callback.verifiedByOctokit).toBe(true);
    expect(callback.verifiedByClient).toBe(true);
    const body = JSON.parse(callback.rawBody.toString("utf8"));
    expect(callback.headers["x-service-event-id"]).toBe(body.event_id);
    expect(body).toMatchObject({ event: "render.completed", status: "completed", width: 64, height: 64 });
    expect(body.credits_charged).toBe(1);
    const index = accepted.get(body.id) as number;
    if (index % 3 === 0) expect(callback.path).toBe(`/row/${index}`);
    else expect(callback.path).toBe("/batch");
  }

  // The delivery log of one render: one attempt, 204, delivered.
  const someId = [...accepted].find(([, i]) => kinds[i] === "ok")?.[0] as string;
  const log = await api(t, "GET", `/v1/renders/${someId}/deliveries`, { key });
  expect(log.status).toBe(200);
  expect(log.body.state).toBe("delivered");
  expect(log.body.attempts[0]).toMatchObject({ attempt: 1, status_code: 204, error: null });
}, 240_000);

async function untilBatchSettled(key: string, id: string) {
  for (;;) {
    const res = await api(t, "GET", `/v1/batches/${id}`, { key });
    expect(res.status).toBe(200);
    if (res.body.counts.queued === 0 && res.body.counts.rendering === 0) return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
}
