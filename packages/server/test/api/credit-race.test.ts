import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testBackend } from "../api-pg/backend.ts";
import { api, balanceOf, newAccount, publishTemplate, startTestServer, type TestServer } from "./support.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

it("50 concurrent scale-1 renders on 10 credits: exactly 10 accepted, 40 refused with 402, balance 0", async () => {
  const { key, accountId } = await newAccount(t, 10);
  await publishTemplate(t, key);
  const results = await Promise.all(
    Array.from({ length: 50 }, () =>
      api(t, "POST", "/v1/renders", { key, body: { template: "test-card", modifications: [] } }),
    ),
  );
  const accepted = results.filter((r) => r.status === 202);
  const refused = results.filter((r) => r.status === 402);
  expect(accepted).toHaveLength(10);
  expect(refused).toHaveLength(40);
  for (const r of refused)
    expect(r.body.error).toMatchObject({ code: "insufficient_credits", required: 1, balance: 0 });
  expect(await balanceOf(t, key)).toBe(0);

  const rows = t.data.db
    .prepare(
      "SELECT kind, COUNT(*) AS n, SUM(amount) AS total FROM ledger WHERE account_id = ? GROUP BY kind ORDER BY kind",
    )
    .all(accountId)
    .map((r) => ({ ...r }));
  expect(rows).toEqual([
    { kind: "charge", n: 10, total: -10 },
    { kind: "grant", n: 1, total: 10 },
  ]);
  const charged = t.data.db.prepare("SELECT COUNT(*) AS n FROM renders WHERE account_id = ?").get(accountId);
  expect(charged?.n).toBe(10);
  const sum = t.data.db.prepare("SELECT SUM(amount) AS s FROM ledger WHERE account_id = ?").get(accountId);
  expect(sum?.s).toBe(0);
});

it("the ledger is append-only and no entry can take a balance below zero, whoever writes", async () => {
  const { accountId } = await newAccount(t, 2);
  const db = t.data.db;
  expect(() => db.prepare("UPDATE ledger SET amount = 1000 WHERE account_id = ?").run(accountId)).toThrow(
    /append-only/,
  );
  expect(() => db.prepare("DELETE FROM ledger WHERE account_id = ?").run(accountId)).toThrow(/append-only/);
  expect(() =>
    db
      .prepare(
        "INSERT INTO ledger (account_id, kind, amount, render_id, created_at) VALUES (?, 'charge', -3, 'rnd_x', 'now')",
      )
      .run(accountId),
  ).toThrow(/CHECK constraint failed/);
  expect(await t.data.ledger.balance(accountId)).toBe(2);
});

it("the balance holds across processes: another connection charging at the same time cannot overdraw", async () => {
  const { key, accountId } = await newAccount(t, 5);
  await publishTemplate(t, key);
  const fromApi = Array.from({ length: 10 }, () =>
    api(t, "POST", "/v1/renders", { key, body: { template: "test-card", modifications: [] } }),
  );
  // The test's own connection (like the CLI) grants 3 credits meanwhile.
  await t.data.ledger.grant(accountId, 3, "concurrent grant", new Date().toISOString());
  const results = await Promise.all(fromApi);
  const accepted = results.filter((r) => r.status === 202).length;
  expect(accepted).toBeLessThanOrEqual(8);
  expect(await balanceOf(t, key)).toBe(8 - accepted);
  expect(await balanceOf(t, key)).toBeGreaterThanOrEqual(0);
});

it("the same race with waiting callers: 10 images, 40 refused, and no output left by a render refused after it started", async () => {
  // Two workers: a waiting caller's render may start before its charge commits (RenderQueue.startEarly),
  // and the charge may then lose the race for the last credits.
  const own = await startTestServer({ workers: 2 });
  try {
    const { key } = await newAccount(own, 10);
    await publishTemplate(own, key);
    const body = { template: "test-card", modifications: [], wait: true };
    const results = await Promise.all(
      Array.from({ length: 50 }, () => api(own, "POST", "/v1/renders", { key, body })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 402)).toHaveLength(40);
    expect(await balanceOf(own, key)).toBe(0);
    // Pairs on one credit: both may start while both charges race for it.
    for (let i = 0; i < 10; i++) {
      const single = await newAccount(own, 1);
      await publishTemplate(own, single.key);
      const pair = await Promise.all(
        [0, 1].map(() => api(own, "POST", "/v1/renders", { key: single.key, body })),
      );
      expect(pair.map((r) => r.status).sort()).toEqual([200, 402]);
      results.push(...pair);
    }
    // Only the embedded default starts renders early (the PostgreSQL backend's queue is pg-boss), and
    // only there do outputs sit in a directory to list.
    if (testBackend() !== "sqlite") return;
    // Closing drains every render still running, those thrown away included.
    await own.server.close();
    const outputs = readdirSync(join(own.data.paths.blobs, "renders"));
    expect(outputs.sort()).toEqual(
      results
        .filter((r) => r.status === 200)
        .map((r) => `${r.body.id}.png`)
        .sort(),
    );
  } finally {
    await own.close();
  }
});
