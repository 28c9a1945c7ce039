import { verifyCallback } from "@pictor/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { api, newAccount, publishTemplate, untilFinished } from "../api/support.ts";
import { answer } from "../webhooks/support/receiver.ts";
import { type CallbackTestServer, startCallbackServer, tinyTemplate } from "./support.ts";

// Completion callbacks wired end to end: render completes → outbox row in the same transaction →
// the deliverer started by `pictor serve` POSTs it, signed with the account's secret.

let t: CallbackTestServer;
beforeAll(async () => {
  t = await startCallbackServer({ receivers: 1, workers: 1 });
});
afterAll(async () => {
  await t.close();
});

async function accountWithTemplate(credits = 100) {
  const account = await newAccount(t, credits);
  await publishTemplate(t, account.key, tinyTemplate());
  const secret = (await api(t, "GET", "/v1/webhook-secret", { key: account.key })).body.secret as string;
  t.secrets.push(secret);
  return { ...account, secret };
}

function receiver() {
  return t.receivers[0] as CallbackTestServer["receivers"][0];
}

it("a completed render's callback arrives signed; the delivery log shows it; redeliver resends the same bytes", async () => {
  const { key, secret } = await accountWithTemplate();
  const before = receiver().received.length;
  const res = await api(t, "POST", "/v1/renders", {
    key,
    body: {
      template: "tiny",
      modifications: [{ name: "title", text: "cb" }],
      webhook_url: receiver().url("/one"),
    },
  });
  expect(res.status).toBe(202);
  const first = await receiver().waitForRequest(before + 1);
  expect(first.path).toBe("/one");
  expect(verifyCallback(first.rawBody, first.headers["x-service-signature"] as string, secret)).toBe(true);
  expect(first.verifiedByOctokit).toBe(true);
  const body = JSON.parse(first.rawBody.toString("utf8"));
  const job = await untilFinished(t, key, res.body.id);
  expect(body).toMatchObject({
    event: "render.completed",
    id: res.body.id,
    status: "completed",
    template: "tiny",
    asset_url: job.asset_url,
    width: 64,
    height: 64,
    credits_charged: 1,
    metadata: { warnings: job.warnings },
  });
  // The callback's url is the same kind of link as the job's output_url (signed at another time).
  const link = new URL(body.url);
  const output = new URL(job.output_url);
  expect(link.origin + link.pathname).toBe(output.origin + output.pathname);
  const image = await fetch(link);
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toBe("image/png");
  expect(first.headers["x-service-event-id"]).toBe(body.event_id);
  expect(Number(first.headers["x-service-timestamp"])).toBeGreaterThan(1_700_000_000);

  const log = await untilDelivered(key, res.body.id);
  expect(log).toMatchObject({
    render_id: res.body.id,
    event_id: body.event_id,
    url: receiver().url("/one"),
    state: "delivered",
    next_attempt_at: null,
  });
  expect(log.attempts).toHaveLength(1);
  expect(log.attempts[0]).toMatchObject({ attempt: 1, status_code: 204, error: null });

  const again = await api(t, "POST", `/v1/renders/${res.body.id}/redeliver`, { key });
  expect(again.status).toBe(202);
  const second = await receiver().waitForRequest(before + 2);
  expect(second.rawBody.equals(first.rawBody)).toBe(true);
  expect(second.headers["x-service-signature"]).toBe(first.headers["x-service-signature"]);
  expect((await untilDelivered(key, res.body.id, 2)).attempts).toHaveLength(2);
});

it("failed renders and renders without webhook_url have no callback; redeliver says so", async () => {
  const { key } = await accountWithTemplate();
  const before = receiver().received.length;
  const failed = await api(t, "POST", "/v1/renders", {
    key,
    body: {
      template: "tiny",
      modifications: [{ name: "photo", image_url: `http://127.0.0.1:${t.deadPort}/x.png` }],
      webhook_url: receiver().url("/never"),
      wait: 30,
    },
  });
  expect(failed.status).toBe(422);
  const renderId = failed.body.error.render_id as string;
  const log = await api(t, "GET", `/v1/renders/${renderId}/deliveries`, { key });
  expect(log.body).toMatchObject({ render_id: renderId, state: null, event_id: null, attempts: [] });
  expect((await api(t, "POST", `/v1/renders/${renderId}/redeliver`, { key })).status).toBe(400);

  // A later render's callback arrives, and nothing for the failed one arrived before it.
  const ok = await api(t, "POST", "/v1/renders", {
    key,
    body: { template: "tiny", modifications: [], webhook_url: receiver().url("/after") },
  });
  const next = await receiver().waitForRequest(before + 1);
  expect(JSON.parse(next.rawBody.toString("utf8")).id).toBe(ok.body.id);
});

it("another account's render and batch are not found (404), for the log, redeliver and the batch", async () => {
  const owner = await accountWithTemplate();
  const other = await newAccount(t, 10);
  const res = await api(t, "POST", "/v1/renders/batch", {
    key: owner.key,
    body: { renders: [{ template: "tiny", modifications: [] }] },
  });
  expect(res.status).toBe(202);
  const renderId = res.body.renders[0].id as string;
  for (const [method, path] of [
    ["GET", `/v1/renders/${renderId}/deliveries`],
    ["POST", `/v1/renders/${renderId}/redeliver`],
    ["GET", `/v1/batches/${res.body.batch_id}`],
  ] as const) {
    const answer404 = await api(t, method, path, { key: other.key });
    expect(answer404.status, `${method} ${path}`).toBe(404);
    expect(answer404.body.error.code).toBe("not_found");
  }
  expect((await api(t, "GET", `/v1/batches/${res.body.batch_id}`, { key: owner.key })).status).toBe(200);
});

it("rotation: new whsec_, previous kept for the grace period, new callbacks signed with the new secret", async () => {
  const { key, secret: oldSecret } = await accountWithTemplate();
  const rotated = await api(t, "POST", "/v1/webhook-secret/rotate", { key });
  expect(rotated.status).toBe(200);
  expect(rotated.headers.get("cache-control")).toBe("no-store");
  const newSecret = rotated.body.secret as string;
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(oldSecret);
  expect(rotated.body.previous_secret).toBe(oldSecret);
  const grace = Date.parse(rotated.body.previous_expires_at) - Date.now();
  expect(grace).toBeGreaterThan(6.9 * 24 * 3_600_000);
  expect(grace).toBeLessThanOrEqual(7 * 24 * 3_600_000);

  const current = await api(t, "GET", "/v1/webhook-secret", { key });
  expect(current.headers.get("cache-control")).toBe("no-store");
  expect(current.body).toEqual(rotated.body);

  const before = receiver().received.length;
  await api(t, "POST", "/v1/renders", {
    key,
    body: { template: "tiny", modifications: [], webhook_url: receiver().url("/rotated") },
  });
  const delivered = await receiver().waitForRequest(before + 1);
  const signature = delivered.headers["x-service-signature"] as string;
  expect(verifyCallback(delivered.rawBody, signature, newSecret)).toBe(true);
  expect(verifyCallback(delivered.rawBody, signature, oldSecret)).toBe(false);
});

it("a receiver that answers 500 gets the same bytes and signature on the retry (5 s later)", async () => {
  const { key } = await accountWithTemplate();
  const before = receiver().received.length;
  receiver().queue(answer(500));
  const res = await api(t, "POST", "/v1/renders", {
    key,
    body: { template: "tiny", modifications: [], webhook_url: receiver().url("/flaky") },
  });
  const failedAttempt = await receiver().waitForRequest(before + 1);
  const log = await untilAttempts(key, res.body.id, 1);
  expect(log.state).toBe("pending");
  expect(log.attempts[0]).toMatchObject({ status_code: 500 });
  // Schedule: second attempt 5 s (±10 %) after the first.
  const gap = Date.parse(log.next_attempt_at) - Date.parse(log.attempts[0].at);
  expect(gap).toBeGreaterThanOrEqual(4500);
  expect(gap).toBeLessThanOrEqual(5500);
  const retry = await receiver().waitForRequest(before + 2);
  expect(retry.rawBody.equals(failedAttempt.rawBody)).toBe(true);
  expect(retry.headers["x-service-signature"]).toBe(failedAttempt.headers["x-service-signature"]);
  expect(
    (await untilDelivered(key, res.body.id)).attempts.map((a: { status_code: number }) => a.status_code),
  ).toEqual([500, 204]);
}, 20_000);

async function untilAttempts(key: string, id: string, count: number) {
  for (;;) {
    const res = await api(t, "GET", `/v1/renders/${id}/deliveries`, { key });
    if (res.body.attempts.length >= count) return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function untilDelivered(key: string, id: string, attempts = 1) {
  for (;;) {
    const res = await api(t, "GET", `/v1/renders/${id}/deliveries`, { key });
    if (res.body.state === "delivered" && res.body.attempts.length >= attempts) return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
}
