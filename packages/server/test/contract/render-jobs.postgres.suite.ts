import type pg from "pg";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgDispatcher, type PgDispatcher } from "../../src/adapters/postgres/dispatcher.ts";
import { createPgLedger } from "../../src/adapters/postgres/ledger.ts";
import { migrate } from "../../src/adapters/postgres/migrations.ts";
import { createPgPool } from "../../src/adapters/postgres/pool.ts";
import {
  createRenderQueue,
  RENDER_GIVEN_UP_QUEUE,
  RENDER_QUEUE,
  RENDER_QUEUE_OPTIONS,
  type RenderJobData,
} from "../../src/adapters/postgres/render-jobs.ts";
import { settleGivenUpRenderJobs } from "../../src/adapters/postgres/render-queue.ts";
import { createPgRenderStore } from "../../src/adapters/postgres/render-store.ts";
import { giveUpRenderJob } from "../../src/jobs/render-job.ts";
import type { RenderRecord } from "../../src/ports/render-store.ts";
import type { ThrowawayPostgres } from "../support/postgres.ts";
import { queuedRender } from "./state-fixture.ts";

const render = (id: string, creditsCharged: number): RenderRecord =>
  queuedRender("acc_jobs", "tpl_jobs", { id, templateKey: "jobs", creditsCharged });

export function renderJobsTests(cluster: ThrowawayPostgres): void {
  describe("the PostgreSQL dispatcher: charge, render and pg-boss job in one transaction", () => {
    let pool: pg.Pool;
    let url: string;
    let boss: PgBoss;
    let workerBoss: PgBoss;
    let dispatcher: PgDispatcher;
    const dispatcherOn = (queueBoss: PgBoss) =>
      createPgDispatcher({
        url,
        pool,
        boss: queueBoss,
        renders: createPgRenderStore(pool),
        maxQueued: 10_000,
      });
    const submit = (r: RenderRecord) => dispatcher.submit(r, { waiting: false });
    const jobsFor = async (renderId: string) =>
      Number(
        (
          await pool.query(
            "SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND data->>'renderId' = $2",
            [RENDER_QUEUE, renderId],
          )
        ).rows[0].n,
      );

    beforeAll(async () => {
      url = await cluster.newDatabase();
      pool = createPgPool(url, { max: 4 });
      await migrate(pool);
      boss = new PgBoss({ connectionString: url, max: 2, supervise: false, schedule: false });
      boss.on("error", () => {});
      await boss.start();
      await createRenderQueue(boss);
      // A worker process: its own pg-boss and connections.
      workerBoss = new PgBoss({
        connectionString: url,
        max: 2,
        supervise: false,
        schedule: false,
        migrate: false,
      });
      workerBoss.on("error", () => {});
      await workerBoss.start();
      await pool.query(
        "INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES ('acc_jobs', 'j', 's', now())",
      );
      await createPgLedger(pool).grant("acc_jobs", 3, null, "2026-11-22T12:00:00.000Z");
      dispatcher = await dispatcherOn(boss);
    });
    afterAll(async () => {
      await dispatcher?.close();
      await workerBoss?.stop({ graceful: false });
      await boss?.stop({ graceful: false });
      await pool?.end();
    });

    it("commits the charge, the render and its job together; a worker process fetches the job", async () => {
      expect(await submit(render("rnd_job_ok", 2))).toMatchObject({ accepted: true });
      expect(await jobsFor("rnd_job_ok")).toBe(1);
      const [job] = await workerBoss.fetch<RenderJobData>(RENDER_QUEUE);
      expect(job?.data).toEqual({ renderId: "rnd_job_ok" });
      await workerBoss.complete(RENDER_QUEUE, job?.id as string);
    });

    it("redelivers the job of a worker that died mid-render once its expiry passes, with backoff", async () => {
      await createPgLedger(pool).grant("acc_jobs", 1, null, "2026-11-22T12:00:00.000Z");
      expect(await submit(render("rnd_job_dies", 1))).toMatchObject({ accepted: true });
      const [taken] = await workerBoss.fetch<RenderJobData>(RENDER_QUEUE);
      expect(taken?.data.renderId).toBe("rnd_job_dies");
      // The worker is SIGKILLed: it never completes. Instead of waiting out expireInSeconds, move the
      // job's start back past it (the database clock is pg-boss's clock for expiry).
      await pool.query(`UPDATE pgboss.job SET started_on = now() - make_interval(secs => $2) WHERE id = $1`, [
        taken?.id,
        RENDER_QUEUE_OPTIONS.expireInSeconds + 1,
      ]);
      await boss.supervise(RENDER_QUEUE);
      const job = async () =>
        (
          await pool.query(
            "SELECT state, retry_count, start_after > now() AS backing_off FROM pgboss.job WHERE id = $1",
            [taken?.id],
          )
        ).rows[0];
      expect(await job()).toMatchObject({ state: "retry", backing_off: true });
      // Skip the backoff the same way; another worker process then gets the same job again.
      await pool.query("UPDATE pgboss.job SET start_after = now() WHERE id = $1", [taken?.id]);
      const [again] = await boss.fetch<RenderJobData>(RENDER_QUEUE);
      expect(again).toMatchObject({ id: taken?.id, data: { renderId: "rnd_job_dies" } });
      expect(await job()).toMatchObject({ state: "active", retry_count: 1 });
      await boss.complete(RENDER_QUEUE, again?.id as string);
    });

    it("ends a render whose job ran out of retries: pg-boss dead-letters the job, the settler fails and refunds the render once", async () => {
      const renders = createPgRenderStore(pool);
      await createPgLedger(pool).grant("acc_jobs", 2, null, "2026-11-22T12:00:00.000Z");
      const before = await createPgLedger(pool).balance("acc_jobs");
      expect(await submit(render("rnd_job_given_up", 2))).toMatchObject({ accepted: true });
      const [taken] = await workerBoss.fetch<RenderJobData>(RENDER_QUEUE);
      expect(taken?.data.renderId).toBe("rnd_job_given_up");
      // Its last attempt: every retry spent (instead of failing it retryLimit times over the backoff).
      await pool.query("UPDATE pgboss.job SET retry_count = retry_limit WHERE id = $1", [taken?.id]);
      await workerBoss.fail(RENDER_QUEUE, taken?.id as string, { message: "worker died again" });
      const given = async () =>
        (
          await pool.query(
            "SELECT state FROM pgboss.job WHERE name = $1 AND data->>'renderId' = 'rnd_job_given_up'",
            [RENDER_GIVEN_UP_QUEUE],
          )
        ).rows.map((r) => r.state);
      expect(await given()).toEqual(["created"]);

      const settle = (renderId: string) =>
        giveUpRenderJob({ renders, clock: { now: () => new Date("2026-11-22T12:05:00.000Z") } }, renderId);
      expect(await settleGivenUpRenderJobs(workerBoss, settle)).toBe(1);
      expect(await given()).toEqual(["completed"]);
      expect(await renders.get("acc_jobs", "rnd_job_given_up")).toMatchObject({
        status: "failed",
        error: { code: "internal_error" },
        creditsRefunded: 2,
      });
      expect(await createPgLedger(pool).balance("acc_jobs")).toBe(before);
      // Settling twice (a redelivered dead letter) refunds nothing more.
      await settle("rnd_job_given_up");
      expect(await createPgLedger(pool).balance("acc_jobs")).toBe(before);
      expect(await settleGivenUpRenderJobs(workerBoss, settle)).toBe(0);
    });

    it("enqueues nothing for a render the balance does not cover", async () => {
      expect(await submit(render("rnd_job_poor", 50))).toMatchObject({ accepted: false });
      expect(await jobsFor("rnd_job_poor")).toBe(0);
    });

    it("rolls back the job with the charge and the render when the transaction fails after the send", async () => {
      // The job is sent inside the transaction, then the process fails before the commit.
      const crashing: PgBoss = Object.create(boss);
      const send = boss.send.bind(boss) as (...args: unknown[]) => Promise<string | null>;
      crashing.send = (async (...args: unknown[]) => {
        await send(...args);
        throw new Error("crash between send and commit");
      }) as unknown as PgBoss["send"];
      const crashingDispatcher = await dispatcherOn(crashing);
      const before = await createPgLedger(pool).balance("acc_jobs");
      await expect(crashingDispatcher.submit(render("rnd_job_crash", 1), { waiting: false })).rejects.toThrow(
        "crash between send and commit",
      );
      await crashingDispatcher.close();
      expect(await jobsFor("rnd_job_crash")).toBe(0);
      expect(await createPgRenderStore(pool).get("acc_jobs", "rnd_job_crash")).toBeNull();
      expect(await createPgLedger(pool).balance("acc_jobs")).toBe(before);
    });
  });
}
