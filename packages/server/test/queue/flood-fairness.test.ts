import { afterAll, beforeAll, expect, it } from "vitest";
import {
  api,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  untilFinished,
} from "../api/support.ts";

// Reliability matrix, "Load and faults": one account floods; other accounts keep their latency. Over
// HTTP with one render worker: account A queues 200 renders, then B waits for one and C sends a few.
// The queue serves accounts round-robin, so B's and C's renders run next to A's backlog, not behind
// it. Judged by the order the renders finished in (completed_at and statuses), not by wall-clock
// thresholds. Runs in both modes (issue 21): the embedded queue (project `server`: one FIFO per
// account, round-robin) and pg-boss on PostgreSQL (project `server-pg`: each job's priority is minus
// its account's queued renders, render-jobs.ts fairPriority; a worker holds one job per render thread).

const FLOOD = 200;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ workers: 1 });
});
afterAll(async () => {
  // Drains only the render in flight: A's backlog stays queued in the table.
  await t?.close();
});

interface Job {
  id: string;
  status: string;
  created_at: string;
  completed_at: string | null;
}

it("one account floods the queue: other accounts' renders finish before most of its backlog", async () => {
  const [a, b, c] = await Promise.all([newAccount(t, FLOOD), newAccount(t, 10), newAccount(t, 10)]);
  for (const account of [a, b, c]) await publishTemplate(t, account.key);
  const body = { template: "test-card", modifications: [] };

  const flood = await api(t, "POST", "/v1/renders/batch", {
    key: a.key,
    body: { renders: Array.from({ length: FLOOD }, () => body) },
  });
  expect(flood.status).toBe(202);
  expect((flood.body.renders as { id?: string }[]).filter((r) => r.id)).toHaveLength(FLOOD);

  // B waits for its render while A's backlog is queued; C sends three meanwhile.
  const [waited, ...sent] = await Promise.all([
    api(t, "POST", "/v1/renders", { key: b.key, body: { ...body, wait: 60 } }),
    ...Array.from({ length: 3 }, () => api(t, "POST", "/v1/renders", { key: c.key, body })),
  ]);
  expect(waited?.status).toBe(200);
  const bJob = waited?.body as Job;
  expect(bJob.status).toBe("completed");
  const cJobs: Job[] = [];
  for (const res of sent) {
    expect(res.status).toBe(202);
    cJobs.push(await untilFinished(t, c.key, res.body.id));
  }
  expect(cJobs.map((j) => j.status)).toEqual(["completed", "completed", "completed"]);

  // A's renders as they stand now; the ones that had finished when the others were done are few.
  const batch = await api(t, "GET", `/v1/batches/${flood.body.batch_id}`, { key: a.key });
  expect(batch.status).toBe(200);
  const aJobs = batch.body.renders as Job[];
  expect(aJobs).toHaveLength(FLOOD);
  const finishedBy = (at: string) =>
    aJobs.filter((j) => j.completed_at !== null && j.completed_at <= at).length;
  const lastOfOthers = [bJob, ...cJobs].map((j) => j.completed_at as string).sort()[3] as string;
  expect(finishedBy(lastOfOthers)).toBeLessThan(FLOOD / 2);

  // With one worker, B's render was dispatched as soon as the one in flight ended and A had one
  // more turn: at most two of A's finished while B was queued (one more if it finished in the
  // millisecond B arrived), where a first-come queue would have rendered every render A had left.
  const bDone = bJob.completed_at as string;
  const duringB = aJobs.filter(
    (j) => j.completed_at !== null && j.completed_at >= bJob.created_at && j.completed_at <= bDone,
  ).length;
  expect(duringB).toBeLessThanOrEqual(3);
});
