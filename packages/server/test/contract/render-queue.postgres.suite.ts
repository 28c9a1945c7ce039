import pg from "pg";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgDispatcher, type PgDispatcher } from "../../src/adapters/postgres/dispatcher.ts";
import { createRenderQueue, RENDER_QUEUE } from "../../src/adapters/postgres/render-jobs.ts";
import { startPgRenderWorkers } from "../../src/adapters/postgres/render-queue.ts";
import { RENDER_FINISHED_CHANNEL } from "../../src/adapters/postgres/render-store.ts";
import { openPostgresState, type PostgresState } from "../../src/adapters/postgres/state.ts";
import { giveUpRenderJob } from "../../src/jobs/render-job.ts";
import type { RenderRecord } from "../../src/ports/render-store.ts";
import type { ThrowawayPostgres } from "../support/postgres.ts";
import { newAccount, publishedTemplate, queuedRender, T1, uid } from "./state-fixture.ts";

/**
 * The scaled-out queue end to end on one database: an "API process" (its own state + queue) accepts
 * renders, which pg-boss hands to a "worker process" (its own state + pg-boss), whose completion wakes
 * the API's waitFor through NOTIFY.
 */
export function renderQueueTests(cluster: ThrowawayPostgres): void {
  describe("PostgreSQL render queue: accept -> pg-boss -> worker -> NOTIFY -> waitFor", () => {
    let api: PostgresState;
    let worker: PostgresState;
    let apiBoss: PgBoss;
    let workerBoss: PgBoss;
    let queue: PgDispatcher;
    /** The API process accepts a render: charged, recorded and its job sent, in one transaction. */
    const accept = async (r: RenderRecord) => {
      const submitted = await queue.submit(r, { waiting: false });
      return submitted.accepted ? { accepted: true } : submitted;
    };
    let stopWorkers: (() => Promise<void>) | null = null;
    let accountId: string;
    let templateId: string;
    let url: string;

    const newBoss = async (url: string) => {
      const boss = new PgBoss({ connectionString: url, max: 2, supervise: false, schedule: false });
      boss.on("error", () => {});
      await boss.start();
      return boss;
    };
    const render = (over: Partial<RenderRecord> = {}): RenderRecord =>
      queuedRender(accountId, templateId, { templateKey: "queue", ...over });
    /** Ends a given-up render as the worker process does (startPgRenderWorkers' `giveUp`). */
    const giveUp = (renderId: string) =>
      giveUpRenderJob({ renders: worker.renders, clock: { now: () => new Date(T1) } }, renderId);
    const asset = (r: RenderRecord) => ({
      id: uid("ast"),
      accountId: r.accountId,
      folder: "renders/queue/",
      name: `${r.id}.png`,
      contentType: "image/png",
      byteSize: 1,
      width: 10,
      height: 10,
      blobKey: `renders/${r.id}.png`,
      token: uid("tok"),
      etag: '"x"',
      metadata: {},
      tags: [],
      renderId: r.id,
      createdAt: T1,
    });

    beforeAll(async () => {
      url = await cluster.newDatabase();
      apiBoss = await newBoss(url);
      await createRenderQueue(apiBoss);
      workerBoss = await newBoss(url);
      api = await openPostgresState(url, { max: 4 });
      worker = await openPostgresState(url, { max: 4 });
      queue = await createPgDispatcher({
        url,
        pool: api.pool,
        boss: apiBoss,
        renders: api.renders,
        maxQueued: 10_000,
      });
      accountId = await newAccount(api, 100);
      templateId = await publishedTemplate(api, accountId);
    });
    afterAll(async () => {
      await stopWorkers?.();
      await queue?.close();
      await workerBoss?.stop({ graceful: false });
      await apiBoss?.stop({ graceful: false });
      await Promise.all([api?.close(), worker?.close()]);
    });

    it("answers at once for a render already finished, and null at the deadline for one still queued", async () => {
      const failed = render();
      await accept(failed);
      await worker.renders.failAndRefund(failed.id, { code: "render_failed", message: "x" }, T1);
      expect((await queue.wait(accountId, failed.id, 60_000))?.render.status).toBe("failed");

      const stuck = render();
      await accept(stuck);
      expect(await queue.wait(accountId, stuck.id, 300)).toBeNull();
      await worker.renders.failAndRefund(stuck.id, { code: "cleanup", message: "x" }, T1);
    });

    it("announces a finished render on the channel, with its id", async () => {
      const listener = new pg.Client({ connectionString: url });
      await listener.connect();
      try {
        await listener.query(`LISTEN ${RENDER_FINISHED_CHANNEL}`);
        const next = new Promise<string>((resolve) =>
          listener.on("notification", (n) => resolve(n.payload ?? "")),
        );
        const r = render();
        await accept(r);
        await worker.renders.complete(r.id, {
          asset: asset(r),
          warnings: [],
          at: T1,
        });
        expect(await next).toBe(r.id);
      } finally {
        await listener.end();
      }
    });

    it("runs accepted renders on worker processes and wakes the waiting API with the result", async () => {
      const ran: string[] = [];
      stopWorkers = await startPgRenderWorkers(workerBoss, {
        url,
        capacity: 2,
        giveUp,
        async run(renderId) {
          const job = await worker.renders.claim(renderId);
          if (!job) return;
          ran.push(renderId);
          await worker.renders.complete(renderId, {
            asset: asset(job.render),
            warnings: [],
            at: T1,
          });
        },
      });
      const renders = [render(), render(), render()];
      const waits = renders.map(async (r) => {
        expect(await accept(r)).toEqual({ accepted: true });
        return queue.wait(accountId, r.id, 30_000);
      });
      const results = await Promise.all(waits);
      expect(results.map((r) => r?.render.status)).toEqual(["completed", "completed", "completed"]);
      expect(ran.sort()).toEqual(renders.map((r) => r.id).sort());
      // Another account cannot wait on (or learn about) this render.
      expect(await queue.wait(await newAccount(api, 0), renders[0]?.id as string, 50)).toBeNull();
    });

    it("runs at most accountConcurrency renders of one account at once; another account's run beside them", async () => {
      await stopWorkers?.();
      const other = await newAccount(api, 10);
      const running = new Map<string, number>();
      let mostOfA = 0;
      const gates: (() => void)[] = [];
      let gating = true;
      let bStarted: () => void = () => {};
      const bStarts = new Promise<void>((resolve) => {
        bStarted = resolve;
      });
      stopWorkers = await startPgRenderWorkers(workerBoss, {
        url,
        capacity: 3,
        accountConcurrency: 1,
        giveUp,
        async run(renderId) {
          const job = await worker.renders.claim(renderId);
          if (!job) return;
          const account = job.render.accountId;
          running.set(account, (running.get(account) ?? 0) + 1);
          if (account === accountId) mostOfA = Math.max(mostOfA, running.get(account) ?? 0);
          if (account === other) bStarted();
          if (gating) await new Promise<void>((resolve) => gates.push(resolve));
          running.set(account, (running.get(account) ?? 0) - 1);
          await worker.renders.complete(renderId, { asset: asset(job.render), warnings: [], at: T1 });
        },
      });
      const ofA = [render(), render(), render()];
      for (const r of ofA) expect(await accept(r)).toEqual({ accepted: true });
      const ofB = render({ accountId: other });
      expect(await accept(ofB)).toEqual({ accepted: true });
      // B's render runs while A's first holds A's only slot (the worker had room for three).
      await bStarts;
      expect(running.get(accountId) ?? 0).toBeLessThanOrEqual(1);
      gating = false;
      for (const open of gates.splice(0)) open();
      const results = await Promise.all([...ofA, ofB].map((r) => queue.wait(r.accountId, r.id, 30_000)));
      expect(results.map((r) => r?.render.status)).toEqual([
        "completed",
        "completed",
        "completed",
        "completed",
      ]);
      expect(mostOfA).toBe(1);
    });

    it("keeps a render thread spare for another account while both render (spareThread)", async () => {
      await stopWorkers?.();
      const other = await newAccount(api, 10);
      const startedIds: string[] = [];
      const gates = new Map<string, () => void>();
      const started = new Map<string, () => void>();
      const whenStarted = (id: string) =>
        startedIds.includes(id) ? Promise.resolve() : new Promise<void>((r) => started.set(id, r));
      // A's three are queued before any worker runs, so A's third ranks behind any render of B's
      // (fairPriority: minus the account's queued renders at acceptance), whatever this machine's speed.
      const [a1, a2, a3] = [render(), render(), render()];
      for (const r of [a1, a2, a3]) expect(await accept(r)).toEqual({ accepted: true });
      stopWorkers = await startPgRenderWorkers(workerBoss, {
        url,
        capacity: 2,
        spareThread: true,
        // Long enough that B counts as rendering throughout, however slow this machine is.
        spareThreadWindowMs: 60_000,
        giveUp,
        async run(renderId) {
          const job = await worker.renders.claim(renderId);
          if (!job) return;
          startedIds.push(renderId);
          started.get(renderId)?.();
          // A's renders run until the test lets them end; B's end at once.
          if (job.render.accountId === accountId) await new Promise<void>((r) => gates.set(renderId, r));
          await worker.renders.complete(renderId, { asset: asset(job.render), warnings: [], at: T1 });
        },
      });
      // A alone: both threads.
      await Promise.all([whenStarted(a1.id), whenStarted(a2.id)]);
      const b1 = render({ accountId: other });
      expect(await accept(b1)).toEqual({ accepted: true });
      gates.get(a1.id)?.();
      // B's render ranks before A's third (fairPriority) and takes the freed thread.
      expect((await queue.wait(other, b1.id, 30_000))?.render.status).toBe("completed");
      // Both render now: A keeps its one thread, the other stays free for B, whose next render starts
      // while A's second still runs and A's third waits.
      const b2 = render({ accountId: other });
      expect(await accept(b2)).toEqual({ accepted: true });
      expect((await queue.wait(other, b2.id, 30_000))?.render.status).toBe("completed");
      expect(startedIds).not.toContain(a3.id);
      expect(gates.has(a2.id)).toBe(true);
      gates.get(a2.id)?.();
      await whenStarted(a3.id);
      gates.get(a3.id)?.();
      const results = await Promise.all([a1, a2, a3].map((r) => queue.wait(accountId, r.id, 30_000)));
      expect(results.map((r) => r?.render.status)).toEqual(["completed", "completed", "completed"]);
      expect(startedIds.slice(2)).toEqual([b1.id, b2.id, a3.id]);
    });

    /**
     * Workers of one thread that may take a job ahead (queuedPerThread), whose renders each wait for
     * the test to release them: which renders were taken, in order, and a wait for the nth.
     */
    const startGatedWorker = async (
      backlogWaitMs: number,
      options: { capacity?: number; queuedPerThread?: number; idlePollMs?: number } = {},
    ) => {
      await stopWorkers?.();
      stopWorkers = null;
      const taken: string[] = [];
      const gates = new Map<string, () => void>();
      const waiters: { n: number; resolve: () => void }[] = [];
      stopWorkers = await startPgRenderWorkers(workerBoss, {
        url,
        capacity: options.capacity ?? 1,
        queuedPerThread: options.queuedPerThread ?? 1,
        backlogWaitMs,
        ...(options.idlePollMs ? { idlePollMs: options.idlePollMs } : {}),
        giveUp,
        async run(renderId) {
          const job = await worker.renders.claim(renderId);
          if (!job) return;
          taken.push(renderId);
          for (const w of waiters.filter((w) => taken.length >= w.n)) w.resolve();
          await new Promise<void>((r) => gates.set(renderId, r));
          await worker.renders.complete(renderId, { asset: asset(job.render), warnings: [], at: T1 });
        },
      });
      return {
        taken,
        takenCount: (n: number) =>
          taken.length >= n
            ? Promise.resolve()
            : new Promise<void>((resolve) => waiters.push({ n, resolve })),
        release: (id: string | undefined) => gates.get(id as string)?.(),
      };
    };

    it("under a backlog, takes one job more per thread than it has threads (queuedPerThread), and the next as one ends", async () => {
      await stopWorkers?.();
      stopWorkers = null;
      const [r1, r2, r3] = [render(), render(), render()];
      for (const r of [r1, r2, r3]) expect(await accept(r)).toEqual({ accepted: true });
      // Any wait is a backlog here: the renders were queued before the worker started.
      const w = await startGatedWorker(0);
      await w.takenCount(2);
      // Both slots are held (the loop asked for them and got them), so the third stays queued.
      expect([...w.taken].sort()).toEqual([r1.id, r2.id].sort());
      expect((await api.renders.get(accountId, r3.id))?.status).toBe("queued");
      w.release(w.taken[0]);
      await w.takenCount(3);
      expect(w.taken[2]).toBe(r3.id);
      for (const id of w.taken.slice(1)) w.release(id);
      const results = await Promise.all([r1, r2, r3].map((r) => queue.wait(accountId, r.id, 30_000)));
      expect(results.map((r) => r?.render.status)).toEqual(["completed", "completed", "completed"]);
    });

    it("takes no job ahead without a backlog: the next job stays queued for another worker", async () => {
      // No job here waits an hour in the queue: never a backlog.
      const w = await startGatedWorker(3_600_000);
      const [r1, r2] = [render(), render()];
      for (const r of [r1, r2]) expect(await accept(r)).toEqual({ accepted: true });
      await w.takenCount(1);
      // The one thread is busy and there is no backlog, so the other render is left in the queue.
      const other = w.taken[0] === r1.id ? r2 : r1;
      expect((await api.renders.get(accountId, other.id))?.status).toBe("queued");
      w.release(w.taken[0]);
      await w.takenCount(2);
      expect(w.taken[1]).toBe(other.id);
      w.release(other.id);
      const results = await Promise.all([r1, r2].map((r) => queue.wait(accountId, r.id, 30_000)));
      expect(results.map((r) => r?.render.status)).toEqual(["completed", "completed"]);
    });

    it("after a fetch that found the queue empty, a job's end fetches again only if a job was sent since", async () => {
      const fetch = workerBoss.fetch.bind(workerBoss);
      let fetches = 0;
      workerBoss.fetch = ((name: string, options?: object) => {
        if (name === RENDER_QUEUE) fetches++;
        return fetch(name, options);
      }) as typeof workerBoss.fetch;
      try {
        // Two threads, so a fetch for one job asks for two and comes back short; no idle poll in the test.
        const w = await startGatedWorker(3_600_000, {
          capacity: 2,
          queuedPerThread: 0,
          idlePollMs: 3_600_000,
        });
        const [r1, r2] = [render(), render()];
        expect(await accept(r1)).toEqual({ accepted: true });
        await w.takenCount(1);
        const afterFirst = fetches;
        w.release(r1.id);
        expect((await queue.wait(accountId, r1.id, 30_000))?.render.status).toBe("completed");
        // r2's NOTIFY brings the one fetch that takes it; r1's end brought none (the queue was empty).
        expect(await accept(r2)).toEqual({ accepted: true });
        await w.takenCount(2);
        expect(fetches).toBe(afterFirst + 1);
        w.release(r2.id);
        expect((await queue.wait(accountId, r2.id, 30_000))?.render.status).toBe("completed");
      } finally {
        workerBoss.fetch = fetch;
      }
    });
  });
}
