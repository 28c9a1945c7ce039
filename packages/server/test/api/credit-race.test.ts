import { afterAll, beforeAll, expect, it } from "vitest";
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
