import type { PgBoss } from "pg-boss";
import { RecentAccounts, spareThreadCap } from "../queue/spare-thread.ts";
import { listenTo } from "./listen.ts";
import { RENDER_GIVEN_UP_QUEUE, RENDER_QUEUE, type RenderJobData } from "./render-jobs.ts";

// NOTIFY wakes an idle worker the moment a job is sent (render-jobs.ts: the queue's `notify`); this
// poll is only the floor for a notification lost while the listening connection was down.
const IDLE_POLL_MS = 2000;
const GIVEN_UP_POLL_MS = 5000;
const ACK_BATCH = 32;
// At 20 renders/s a 50 ms timer acknowledged jobs one by one: a statement per render. Half a second
// gathers ten; a job whose acknowledgement a crash loses comes back to a render that has ended (a
// no-op), and the job's lease (a minute) is far longer.
const ACK_EVERY_MS = 500;
// A job fetched this long after it was sent found no worker idle: there is a backlog (queuedPerThread).
const BACKLOG_WAIT_MS = 100;
/** What a fetch with `includeMetadata` adds to a job and the backlog rule reads. */
type JobTimes = { createdOn?: Date; startedOn?: Date };

/**
 * pg-boss's NOTIFY channel for new jobs, derived from its schema as pg-boss derives it
 * (plans.notifyChannelSql, not exported). Were that ever to change, workers would fall back to the
 * idle poll: slower to wake, never wrong.
 */
const PGBOSS_CHANNEL_SQL =
  "SELECT ('pgboss_' || left(encode(sha224('pgboss'::bytea), 'hex'), 24)) AS channel";

/**
 * The worker side: one subscription per process. A single loop fetches as many render jobs as the
 * process has free render threads (`capacity`) in one pg-boss fetch, runs each to its end state with
 * `run` (the shared runRenderJob: the render's end, its output asset, hash and callback commit
 * together), and fetches again as threads free up. Finished jobs are completed in pg-boss together,
 * one statement for up to ACK_BATCH jobs or every ACK_EVERY_MS: a job whose completion is lost (a
 * crash in between) expires and is delivered again, and finds its render ended (runRenderJob is
 * idempotent). When the queue is empty the loop sleeps until pg-boss NOTIFYs a new job (or
 * IDLE_POLL_MS passes): no polling per render or per thread. A throw fails the job into pg-boss's
 * retry with backoff; a process killed mid-render has its jobs expire and redelivered. With
 * `spareThread`, while jobs of more than one account ran here lately, no account may hold every render
 * thread of this process: the fetch for its last free thread skips that account's jobs (pg-boss
 * `ignoreGroups`; a job's group is its account), so another account's job starts at once. Returns a
 * stop function that lets jobs in flight finish.
 */
export async function startPgRenderWorkers(
  boss: PgBoss,
  options: {
    /** For the LISTEN connection. */
    url: string;
    /** Render threads of this process. */
    capacity: number;
    /**
     * Jobs each thread may hold waiting behind the one it renders (default 0), as the embedded pool
     * does: the thread starts the next draw while this one's output is encoded and stored, instead of
     * idling through the store's answer and three database round trips. Only under a backlog (the
     * last job fetched here had waited `backlogWaitMs` in the queue, so no worker was idle for it: a
     * job taken to wait here is not one another worker would have started at once) and while one
     * account renders here (another account's job would wait behind it, and the spare thread would
     * not be kept).
     */
    queuedPerThread?: number;
    /** How long a job must have waited in the queue to show a backlog (queuedPerThread); default 100 ms. */
    backlogWaitMs?: number;
    /** The floor under NOTIFY: an idle worker fetches at least this often; default 2 s. */
    idlePollMs?: number;
    /** At most this many renders of one account run at once across all workers; none: no cap. */
    accountConcurrency?: number;
    /** Keeps one render thread of this process for other accounts while they render (spare-thread.ts). */
    spareThread?: boolean;
    /** How long an account counts as rendering after a start here (spare thread); default 5 s. */
    spareThreadWindowMs?: number;
    /**
     * Runs the render to its end state (a no-op for one that has ended); a throw means retry.
     * `traceparent`: the trace context the job was sent with, when traced.
     */
    run(renderId: string, traceparent: string | undefined): Promise<unknown>;
    /** Ends a render whose job was given up (failed and refunded; a no-op if it had finished). */
    giveUp(renderId: string): Promise<unknown>;
  },
): Promise<() => Promise<void>> {
  let stopping = false;
  let inFlight = 0;
  // A wake while the loop is not asleep (a NOTIFY during a fetch) is kept for its next sleep, so a job
  // sent meanwhile is fetched at once, not after the idle poll.
  let woke = false;
  let wake: () => void = () => {
    woke = true;
  };
  // Every job sent NOTIFYs, so a fetch that found the queue empty, with no NOTIFY since it started,
  // still holds: the next job's end need not fetch again. At low load that empty fetch after each
  // render was a statement and a wake-up of this thread per render. `emptyAsOf` is the count of
  // NOTIFYs seen when such a fetch started; null when the queue may hold a job.
  let notifications = 0;
  let emptyAsOf: number | null = null;
  const woken = () =>
    new Promise<void>((resolve) => {
      if (woke) {
        woke = false;
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        // The floor: a job may be ready with no NOTIFY (a retry's delay ran out, a lease expired).
        emptyAsOf = null;
        done();
      }, options.idlePollMs ?? IDLE_POLL_MS);
      function done() {
        clearTimeout(timer);
        wake = () => {
          woke = true;
        };
        resolve();
      }
      wake = done;
    });
  const { rows } = await boss.getDb().executeSql(PGBOSS_CHANNEL_SQL);
  const listener = await listenTo(options.url, String(rows[0]?.channel), "pictor-worker-listen", () => {
    notifications++;
    wake();
  });

  let acks: string[] = [];
  let ackTimer: NodeJS.Timeout | null = null;
  let acking: Promise<void> = Promise.resolve();
  const flushAcks = () => {
    if (ackTimer) clearTimeout(ackTimer);
    ackTimer = null;
    const ids = acks;
    acks = [];
    if (ids.length === 0) return acking;
    acking = acking.then(() =>
      boss.complete(RENDER_QUEUE, ids).then(
        // Under a per-account cap, a job counts against its account until acknowledged: the
        // account's next job (whose NOTIFY may have come meanwhile) can be fetched now.
        () => {
          if (options.accountConcurrency) wake();
        },
        // Database away: these jobs expire and come back, to renders that have ended (a no-op).
        () => {},
      ),
    );
    return acking;
  };
  const ack = (id: string) => {
    acks.push(id);
    if (acks.length >= ACK_BATCH) void flushAcks();
    // Under a per-account cap an unacknowledged job holds its account's slot: acknowledged at once
    // (jobs that finish together still go in one statement).
    else ackTimer ??= setTimeout(flushAcks, options.accountConcurrency ? 0 : ACK_EVERY_MS);
  };

  // Renders running here by account (a job's group), and the accounts that started any lately.
  const runningByAccount = new Map<string, number>();
  const recent = new RecentAccounts(options.spareThreadWindowMs);
  const spare = options.spareThread === true && options.capacity >= 2;
  const counted = (account: string | null | undefined, by: 1 | -1) => {
    if (!account) return;
    const n = (runningByAccount.get(account) ?? 0) + by;
    if (n > 0) runningByAccount.set(account, n);
    else runningByAccount.delete(account);
    if (by === 1) recent.started(account);
  };
  /** Accounts that may not take another thread here now (they hold all but the spare one). */
  const heldBack = () =>
    [...runningByAccount]
      .filter(([account, n]) => n >= spareThreadCap(recent, options.capacity, account))
      .map(([account]) => account);

  const runOne = async (job: { id: string; data: RenderJobData; groupId?: string | null }) => {
    counted(job.groupId, 1);
    try {
      await options.run(job.data.renderId, job.data.traceparent);
      ack(job.id);
    } catch (error) {
      await boss.fail(RENDER_QUEUE, job.id, { message: String(error) }).catch(() => {});
    } finally {
      counted(job.groupId, -1);
      inFlight--;
      wake();
    }
  };
  // The last fetch got all it asked for, the last of it after a wait in the queue (queuedPerThread).
  let backlog = false;
  const waitedLong = (job: JobTimes | undefined) =>
    job?.createdOn !== undefined &&
    job.startedOn !== undefined &&
    job.startedOn.getTime() - job.createdOn.getTime() >= (options.backlogWaitMs ?? BACKLOG_WAIT_MS);
  /** Jobs this process may hold now: one per thread, and the queued ones under one account's backlog. */
  const slots = () =>
    backlog && !recent.several() ? options.capacity * (1 + (options.queuedPerThread ?? 0)) : options.capacity;
  const fetcher = async () => {
    while (!stopping) {
      const room = slots() - inFlight;
      // While several accounts render, one job at a time, so that each fetch knows who is held back.
      const asked = spare && recent.several() ? Math.min(room, 1) : room;
      let fetched = 0;
      if (asked > 0 && emptyAsOf !== notifications) {
        const seen = notifications;
        try {
          const ignoreGroups = spare ? heldBack() : [];
          const jobs = await boss.fetch<RenderJobData>(RENDER_QUEUE, {
            batchSize: asked,
            // Its times tell whether there is a backlog (queuedPerThread).
            ...(options.queuedPerThread ? { includeMetadata: true } : {}),
            ...(options.accountConcurrency ? { groupConcurrency: options.accountConcurrency } : {}),
            ...(ignoreGroups.length > 0 ? { ignoreGroups } : {}),
          });
          fetched = jobs.length;
          backlog = fetched === asked && waitedLong(jobs.at(-1) as JobTimes | undefined);
          // Short with nothing held back (no group skipped or capped): no other job was ready.
          const empty = fetched < asked && ignoreGroups.length === 0 && !options.accountConcurrency;
          emptyAsOf = empty ? seen : null;
          inFlight += jobs.length;
          for (const job of jobs) void runOne(job);
        } catch {
          // Database unreachable for a moment: the next pass tries again.
        }
      }
      // All that was asked for came: more may wait, so go again while there is room (a job's end
      // wakes us otherwise). A held-back account's jobs are looked at again on the idle poll at the
      // latest, once the others have been quiet for the window.
      if (stopping || (asked > 0 && fetched === asked && inFlight < slots())) continue;
      await woken();
    }
  };
  const settler = async () => {
    while (!stopping) {
      const settled = await settleGivenUpRenderJobs(boss, options.giveUp).catch(() => 0);
      if (settled === 0) await new Promise((r) => setTimeout(r, GIVEN_UP_POLL_MS).unref());
    }
  };
  const loops = [fetcher(), settler()];
  return async () => {
    stopping = true;
    wake();
    await loops[0];
    while (inFlight > 0) await woken();
    await flushAcks();
    await listener.close();
  };
}

/**
 * One pass over the render jobs pg-boss gave up on (RENDER_GIVEN_UP_QUEUE): each render is ended with
 * `giveUp` and its job completed; a job whose settling fails (database away) is retried by pg-boss.
 * Returns how many jobs it took.
 */
export async function settleGivenUpRenderJobs(
  boss: PgBoss,
  giveUp: (renderId: string) => Promise<unknown>,
): Promise<number> {
  const jobs = await boss.fetch<RenderJobData>(RENDER_GIVEN_UP_QUEUE, { batchSize: 20 });
  for (const job of jobs) {
    try {
      await giveUp(job.data.renderId);
      await boss.complete(RENDER_GIVEN_UP_QUEUE, job.id);
    } catch (error) {
      await boss.fail(RENDER_GIVEN_UP_QUEUE, job.id, { message: String(error) }).catch(() => {});
    }
  }
  return jobs.length;
}
