import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RENDER_QUEUE } from "../../src/adapters/postgres/render-jobs.ts";
import type { RunningServer } from "../../src/main/running-server.ts";
import { api } from "../api/support.ts";
import { startPostgres } from "../support/postgres.ts";
import { s3Env, startS3 } from "../support/s3.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";
import { startScaledServer } from "./scaled-server.ts";

// Reliability matrix, "database or object store briefly unavailable", the object store's half: a
// render whose output cannot be uploaded is not failed and refunded at once; its job runs again after
// pg-boss's backoff and completes once the store is back. S3 (Swift) stays up; a proxy between it and
// the server cuts the connections.
const SUITE = "scale/object-store-outage (PostgreSQL + S3)";
const cluster = await startPostgres(SUITE);
const s3 = cluster ? await startS3(SUITE) : null;

describe.skipIf(!cluster || !s3)("the object store briefly unreachable", () => {
  const dir = mkdtempSync(join(tmpdir(), "pictor-s3-outage-"));
  let proxy: TcpProxy;
  let server: RunningServer;
  let db: pg.Client;
  let apiKey: string;
  let accountId: string;
  const t = () => ({ url: server.url });

  beforeAll(async () => {
    if (!cluster || !s3) return;
    const databaseUrl = await cluster.newDatabase();
    proxy = await startTcpProxy(Number(new URL(s3.endpoint).port));
    ({ server, apiKey, accountId } = await startScaledServer(dir, {
      DATABASE_URL: databaseUrl,
      ...s3Env(s3, "outage/", `http://127.0.0.1:${proxy.port}`),
      PICTOR_SIGNING_SECRET: randomBytes(32).toString("hex"),
    }));
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    proxy?.restore();
    await server?.close();
    await db?.end();
    await proxy?.close();
    await s3?.stop();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers 503 for an output it cannot read, and retries the render whose output could not be uploaded; it completes once the store is back, charged once", async () => {
    const before = await api(t(), "POST", "/v1/renders", {
      key: apiKey,
      body: { template: "tiny", modifications: [], wait: 30 },
    });
    expect(before.status).toBe(200);

    proxy.cut();
    // Reading an output while the store is away: 503 with Retry-After, not 500.
    const unreadable = await fetch(before.body.asset_url);
    expect(unreadable.status).toBe(503);
    expect(unreadable.headers.get("retry-after")).toBe("5");
    expect(((await unreadable.json()) as { error: { code: string } }).error.code).toBe("unavailable");
    const pending = api(t(), "POST", "/v1/renders", {
      key: apiKey,
      body: { template: "tiny", modifications: [], wait: 60 },
    });
    // The upload failed and the job is waiting out its backoff (not failed, not refunded): then the
    // store comes back.
    const retrying = async () =>
      (
        await db.query(
          "SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'retry' AND retry_count >= 1",
          [RENDER_QUEUE],
        )
      ).rows[0].n as number;
    const deadline = Date.now() + 30_000;
    while ((await retrying()) === 0) {
      if (Date.now() > deadline) throw new Error("the render's job was never retried");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const refunds = await db.query(
      "SELECT count(*)::int AS n FROM ledger WHERE account_id = $1 AND kind = 'refund'",
      [accountId],
    );
    expect(refunds.rows[0].n).toBe(0);
    proxy.restore();

    const res = await pending;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "completed", credits_charged: 1, credits_refunded: 0 });
    const image = await fetch(res.body.output_url);
    expect(image.status).toBe(200);
    expect((await api(t(), "GET", "/v1/account", { key: apiKey })).body.credits_balance).toBe(28);
  });
});
