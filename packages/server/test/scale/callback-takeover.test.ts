import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/domain/accounts.ts";
import { readServeConfig } from "../../src/main/config.ts";
import { openScaledState } from "../../src/main/scaled-state.ts";
import { startPostgres } from "../support/postgres.ts";
import { completionEvent } from "../webhooks/support/outbox-fixture.ts";
import { hang, startReceiver, type TestReceiver } from "../webhooks/support/receiver.ts";
import { spawnPictor } from "./processes.ts";

// A callback claimed by a worker process that dies mid-attempt is sent by another worker within 10 s
// of the death: each deliverer writes a heartbeat every 2 s, and a claim whose deliverer has not
// written one for 6 s is taken over, instead of waiting out the claim's 60 s lease.
const SUITE = "scale/callback-takeover (PostgreSQL)";
const cluster = await startPostgres(SUITE);

describe.skipIf(!cluster)("a callback claimed by a worker that is killed", () => {
  const running = new Set<ChildProcess>();
  const dir = mkdtempSync(join(tmpdir(), "pictor-takeover-"));
  let env: NodeJS.ProcessEnv;
  let receiver: TestReceiver;
  const secrets: string[] = [];
  let db: pg.Client;

  const startWorker = () => spawnPictor("worker", ["--workers", "1", "--data", dir], env, running);

  beforeAll(async () => {
    if (!cluster) return;
    const databaseUrl = await cluster.newDatabase();
    receiver = await startReceiver(secrets);
    env = {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      PICTOR_PUBLIC_URL: "http://127.0.0.1:9",
      PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${receiver.port}`,
      PICTOR_LOG_LEVEL: "warn",
      PICTOR_DB_POOL_MAX: "4",
    };
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await Promise.all(
      [...running].map((child) => {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        return gone;
      }),
    );
    await db?.end();
    await receiver?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is sent by the other worker within 10 s of the kill, the same bytes and signature", async () => {
    const workers = await Promise.all([startWorker(), startWorker()]);
    // The event as a render's completion stores it, for an account of this database.
    const config = readServeConfig({ role: "worker", data: dir }, env);
    if (config.backend.state !== "postgres") throw new Error("expected PostgreSQL");
    const state = await openScaledState(config, config.backend);
    const { accountId } = await createAccount(state, { name: "takeover", credits: 0 });
    secrets.push((await state.accounts.webhookSecret(accountId)) as string);
    const event = completionEvent(receiver.url("/takeover"), Date.now(), accountId);
    // The first attempt never gets an answer: its worker is still sending when it is killed.
    receiver.queue(hang);
    await state.webhooks.enqueue(event);
    await state.close();
    const sent = await receiver.waitForRequest(1);

    const claimOf = async () =>
      (
        await db.query<{ claimed_by: string; claim_token: string; lease_until: string }>(
          "SELECT claimed_by, claim_token, lease_until FROM webhook_events WHERE event_id = $1",
          [event.event_id],
        )
      ).rows[0];
    const claim = await claimOf();
    // A claim names its deliverer as <host>/<pid>/<random>: the process to kill.
    const holder = workers.find((w) => claim?.claimed_by.split("/")[1] === String(w.child.pid));
    const other = workers.find((w) => w !== holder);
    if (!claim || !holder || !other) throw new Error(`no worker holds the claim ${JSON.stringify(claim)}`);
    const claimedAt = Number(claim.lease_until) - 60_000;
    // Alive, the holder keeps its claim past the 6 s after which a silent deliverer's claims are taken
    // (its attempt runs up to 15 s): its heartbeat moves on, and the other worker, polling every
    // second meanwhile, leaves the event alone.
    for (;;) {
      const [beat] = (
        await db.query("SELECT last_seen FROM webhook_deliverers WHERE deliverer_id = $1", [claim.claimed_by])
      ).rows;
      if (Number(beat?.last_seen) >= claimedAt + 8_000) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(receiver.received).toHaveLength(1);
    expect((await claimOf())?.claim_token).toBe(claim.claim_token);

    const killedAt = Date.now();
    await holder.stop("SIGKILL");
    const deadline = new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000).unref());
    const again = await Promise.race([receiver.waitForRequest(2), deadline]);
    const sentAgainAt = Date.now();
    if (!again) throw new Error("the callback was not sent again within 30 s of the kill");
    expect(sentAgainAt - killedAt, `sent again ${sentAgainAt - killedAt} ms after the kill`).toBeLessThan(
      10_000,
    );
    // Before the claim's lease would have let it go.
    expect(Number(claim.lease_until)).toBeGreaterThan(sentAgainAt);
    expect(again.rawBody.equals(sent.rawBody)).toBe(true);
    expect(again.headers["x-service-signature"]).toBe(sent.headers["x-service-signature"]);
    expect(again.headers["x-service-event-id"]).toBe(event.event_id);
    expect(again.verifiedByClient).toBe(true);

    // The other worker records the delivery under its own claim.
    for (;;) {
      const [row] = (await db.query("SELECT state FROM webhook_events WHERE event_id = $1", [event.event_id]))
        .rows;
      if (row?.state === "delivered") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await other.stop("SIGTERM");
    expect(other.child.exitCode).toBe(0);
    // Stopped cleanly, it retired its heartbeat; the killed one's row stays until it is a day old.
    const deliverers = (await db.query("SELECT deliverer_id FROM webhook_deliverers")).rows;
    expect(deliverers.map((d) => d.deliverer_id)).toEqual([claim.claimed_by]);
  }, 120_000);
});
