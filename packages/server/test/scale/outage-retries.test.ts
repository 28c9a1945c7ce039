import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../api/support.ts";
import { startPostgres } from "../support/postgres.ts";
import { type ScaledServerBehindProxy, startScaledServerBehindProxy } from "./scaled-server.ts";

// Wait renders in flight when PostgreSQL goes away keep the retry contract: each answers 503
// `unavailable` with Retry-After (never 500), and once the database is back the same request with the
// same Idempotency-Key gets its render at once (the one charged before the outage), not
// `409 idempotency_key_in_use` until the key's lock times out (5 minutes). A proxy between the server
// and PostgreSQL cuts the connections, as a network partition or a database restart would.
const SUITE = "scale/outage-retries (PostgreSQL)";
const cluster = await startPostgres(SUITE);

describe.skipIf(!cluster)("wait renders in flight during a PostgreSQL outage", () => {
  let running: ScaledServerBehindProxy;
  const t = () => ({ url: running.server.url });

  beforeAll(async () => {
    if (cluster) running = await startScaledServerBehindProxy(cluster, "pictor-outage-retries-");
  });
  afterAll(async () => {
    await running?.close();
    await cluster?.stop();
  });

  it("answers each 503 with Retry-After, and a retry with the same key after the outage gets the same render, charged once", async () => {
    const { proxy, images, db, apiKey, accountId } = running;
    const keys = ["outage-a", "outage-b", "outage-c"];
    const request = (key: string, wait: number) =>
      api(t(), "POST", "/v1/renders", {
        key: apiKey,
        body: {
          template: "tiny",
          modifications: [
            { name: "photo", image_url: images.url },
            { name: "title", text: key },
          ],
          wait,
        },
        headers: { "idempotency-key": key },
      });
    const rendersOf = async () =>
      (
        await db.query<{ id: string; idempotency_key: string }>(
          "SELECT id, idempotency_key FROM renders WHERE account_id = $1 AND idempotency_key IS NOT NULL ORDER BY idempotency_key",
          [accountId],
        )
      ).rows;

    // Three wait renders, accepted and charged; the first is drawing, held on its image, the others queued.
    const inFlight = keys.map((key) => request(key, 30));
    await images.requested;
    while ((await rendersOf()).length < keys.length) await new Promise((resolve) => setTimeout(resolve, 20));
    const accepted = await rendersOf();

    proxy.cut();
    const during = await Promise.all(inFlight);
    for (const res of during) {
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.error.code).toBe("unavailable");
      expect(res.headers.get("retry-after")).toBe("5");
    }

    proxy.restore();
    images.release();
    const backAt = performance.now();
    const retried = await Promise.all(keys.map((key) => request(key, 30)));
    const answeredIn = performance.now() - backAt;
    for (const [i, res] of retried.entries()) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ id: accepted[i]?.id, status: "completed", credits_charged: 1 });
    }
    // At once: the time the renders take to finish, not a lock's timeout.
    expect(answeredIn).toBeLessThan(20_000);
    expect(await rendersOf()).toEqual(accepted);
    const ledger = await db.query(
      "SELECT kind, count(*)::int AS n FROM ledger WHERE account_id = $1 GROUP BY kind ORDER BY kind",
      [accountId],
    );
    expect(ledger.rows).toEqual([
      { kind: "charge", n: 3 },
      { kind: "grant", n: 1 },
    ]);
    // The answers are stored now: a further retry is a replay.
    const replayed = await request("outage-a", 30);
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body.id).toBe(accepted[0]?.id);
  });
});
