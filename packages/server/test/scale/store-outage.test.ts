import { existsSync } from "node:fs";
import { join } from "node:path";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RENDER_QUEUE } from "../../src/adapters/postgres/render-jobs.ts";
import { api, untilFinished } from "../api/support.ts";
import { startPostgres } from "../support/postgres.ts";
import { type ScaledServerBehindProxy, startScaledServerBehindProxy } from "./scaled-server.ts";

// Reliability matrix, "database or object store briefly unavailable": 503 for new work, nothing
// half-written; queued work resumes. PostgreSQL stays up; a proxy between it and the server cuts the
// connections, as a network partition or a database restart would.
const SUITE = "scale/store-outage (PostgreSQL)";
const cluster = await startPostgres(SUITE);

describe.skipIf(!cluster)("PostgreSQL briefly unreachable", () => {
  let running: ScaledServerBehindProxy;
  const t = () => ({ url: running.server.url });

  beforeAll(async () => {
    if (!cluster) return;
    running = await startScaledServerBehindProxy(cluster, "pictor-outage-");
    // A job whose worker lost the database mid-render is retried after its expiry: seconds here.
    const boss = new PgBoss({
      connectionString: running.databaseUrl,
      max: 1,
      supervise: false,
      schedule: false,
    });
    boss.on("error", () => {});
    await boss.start();
    await boss.updateQueue(RENDER_QUEUE, { expireInSeconds: 3 });
    await boss.stop({ graceful: false });
  });
  afterAll(async () => {
    await running?.close();
    await cluster?.stop();
  });

  const ledger = async () =>
    Object.fromEntries(
      (
        await running.db.query(
          "SELECT kind, count(*)::int AS n FROM ledger WHERE account_id = $1 GROUP BY kind",
          [running.accountId],
        )
      ).rows.map((r) => [r.kind, r.n]),
    );

  it("answers 503 unavailable with Retry-After while it is gone, charges nothing, and resumes queued work", async () => {
    const { dir, proxy, images, db, apiKey } = running;
    // Queued work: accepted and charged, its worker held on the image when the database goes away.
    const held = await api(t(), "POST", "/v1/renders", {
      key: apiKey,
      body: { template: "tiny", modifications: [{ name: "photo", image_url: images.url }] },
    });
    expect(held.status).toBe(202);
    await images.requested;
    expect(await ledger()).toEqual({ grant: 1, charge: 1 });

    proxy.cut();
    const refused = await api(t(), "POST", "/v1/renders", {
      key: apiKey,
      body: { template: "tiny", modifications: [], wait: 5 },
      headers: { "idempotency-key": "during-outage" },
    });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe("unavailable");
    expect(refused.headers.get("retry-after")).toBe("5");
    const account = await api(t(), "GET", "/v1/account", { key: apiKey });
    expect(account.status).toBe(503);
    // The held render finishes drawing while the database is away: its output is stored, and its
    // completion (the next connection after that) is refused.
    images.release();
    const output = join(dir, "blobs", "renders", `${held.body.id}.png`);
    while (!existsSync(output)) await new Promise((resolve) => setImmediate(resolve));
    await proxy.nextRefusal();
    const [row] = (await db.query("SELECT status FROM renders WHERE id = $1", [held.body.id])).rows;
    expect(row?.status).toBe("rendering");

    proxy.restore();
    expect(await ledger()).toEqual({ grant: 1, charge: 1 });
    const retried = await api(t(), "POST", "/v1/renders", {
      key: apiKey,
      body: { template: "tiny", modifications: [], wait: 30 },
      headers: { "idempotency-key": "during-outage" },
    });
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe("completed");
    // The render queued before the outage completes (its job retried), charged once, never refunded.
    const finished = await api(t(), "POST", "/v1/renders", {
      key: apiKey,
      body: { template: "tiny", modifications: [], wait: 1 },
    });
    expect(finished.status).toBe(200);
    expect((await untilFinished(t(), apiKey, held.body.id)).status).toBe("completed");
    expect(await ledger()).toEqual({ grant: 1, charge: 3 });
    const balance = await api(t(), "GET", "/v1/account", { key: apiKey });
    expect(balance.body.credits_balance, `GET /v1/account answered ${balance.status}`).toBe(27);
  });
});
