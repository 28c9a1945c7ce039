import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/main/running-server.ts";
import { api } from "../api/support.ts";
import { startPostgres } from "../support/postgres.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";
import { startTrialServer } from "./trial-server.ts";

// Wait renders in flight when PostgreSQL goes away keep the retry contract: each answers 503
// `unavailable` with Retry-After (never 500), and once the database is back the same request with the
// same Idempotency-Key gets its render at once (the one charged before the outage), not
// `409 idempotency_key_in_use` until the key's lock times out (5 minutes). A proxy between the server
// and PostgreSQL cuts the connections, as a network partition or a database restart would.
const SUITE = "scale/outage-retries (PostgreSQL)";
const cluster = await startPostgres(SUITE);

describe.skipIf(!cluster)("wait renders in flight during a PostgreSQL outage", () => {
  const dir = mkdtempSync(join(tmpdir(), "pictor-outage-retries-"));
  let proxy: TcpProxy;
  let server: RunningServer;
  let db: pg.Client;
  let apiKey: string;
  let accountId: string;
  let images: Awaited<ReturnType<typeof startHeldImage>>;
  const t = () => ({ url: server.url });

  beforeAll(async () => {
    if (!cluster) return;
    const databaseUrl = await cluster.newDatabase();
    const port = Number(new URL(databaseUrl).port);
    proxy = await startTcpProxy(port);
    images = await startHeldImage();
    ({ server, apiKey, accountId } = await startTrialServer(dir, {
      DATABASE_URL: databaseUrl.replace(`:${port}/`, `:${proxy.port}/`),
      PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${images.port}`,
      PICTOR_QUEUE_SUPERVISE_SECONDS: "1",
    }));
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    images?.release();
    proxy?.restore();
    await server?.close();
    await db?.end();
    await proxy?.close();
    await images?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers each 503 with Retry-After, and a retry with the same key after the outage gets the same render, charged once", async () => {
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

/** An image origin that holds every request until `release`: renders wait on it mid-flight. */
async function startHeldImage() {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3a6" } })
    .png()
    .toBuffer();
  const held: ServerResponse[] = [];
  let open = false;
  let requested: () => void = () => {};
  const firstRequest = new Promise<void>((resolve) => {
    requested = resolve;
  });
  const send = (res: ServerResponse) =>
    res.writeHead(200, { "content-type": "image/png", "content-length": png.length }).end(png);
  const server = createServer((_req, res) => {
    requested();
    if (open) send(res);
    else held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/photo.png`,
    requested: firstRequest,
    release() {
      open = true;
      for (const res of held.splice(0)) send(res);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
