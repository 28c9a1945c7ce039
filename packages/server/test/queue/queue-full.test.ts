import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  balanceOf,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
  untilFinished,
} from "../api/support.ts";

/**
 * The embedded queue refuses new work once PICTOR_MAX_QUEUED renders wait: single renders AND batches
 * get 503 `unavailable` with Retry-After before anything is charged. (The PostgreSQL queue keeps its
 * backlog in pg-boss and has no such in-process limit, so this runs on the embedded default only.)
 */
describe("a full render queue", () => {
  let t: TestServer;
  let held: ServerResponse[] = [];
  let releasing = false;
  let holdPort = 0;
  // Holds every image request until released; after that, answers 404 at once.
  const hold = createServer((_req, res) => {
    if (releasing) res.writeHead(404).end();
    else held.push(res);
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => hold.listen(0, "127.0.0.1", resolve));
    holdPort = (hold.address() as AddressInfo).port;
    t = await startTestServer({ workers: 1, allowPorts: [holdPort], env: { PICTOR_MAX_QUEUED: "1" } });
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    held = [];
    await t?.close();
    await new Promise((resolve) => hold.close(resolve));
  });

  it("answers 503 to a single render and to a batch, charging nothing, and takes work again once drained", async () => {
    const { key } = await newAccount(t, 100);
    await publishTemplate(t, key);
    const stalled = (n: number) => ({
      template: "test-card",
      modifications: [{ name: "photo", image_url: `http://127.0.0.1:${holdPort}/slow-${n}.png` }],
    });
    // The only worker holds two renders (worker-pool.ts TASKS_PER_WORKER), each waiting on its image;
    // the third waits in the queue: full at 1.
    const stalledJobs = [];
    for (const n of [1, 2, 3])
      stalledJobs.push(await api(t, "POST", "/v1/renders", { key, body: stalled(n) }));
    expect(stalledJobs.map((j) => j.status)).toEqual([202, 202, 202]);
    const before = await balanceOf(t, key);

    const single = await api(t, "POST", "/v1/renders", {
      key,
      body: { template: "test-card", modifications: [] },
    });
    expect(single.status).toBe(503);
    expect(single.headers.get("retry-after")).toBe("5");
    const batch = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: { renders: [{ template: "test-card", modifications: [] }] },
    });
    expect(batch.status).toBe(503);
    expect((batch.body as { error: { code: string } }).error.code).toBe("unavailable");
    expect(await balanceOf(t, key)).toBe(before);

    // Release the stalled image requests (a 404 fails those renders with a refund) and the queue drains.
    releasing = true;
    for (const res of held.splice(0)) res.writeHead(404).end();
    for (const job of stalledJobs) {
      const done = await untilFinished(t, key, (job.body as { id: string }).id);
      expect(done.status).toBe("failed");
    }
    const accepted = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: { renders: [{ template: "test-card", modifications: [] }] },
    });
    expect(accepted.status).toBe(202);
    await untilFinished(t, key, (accepted.body as { renders: { id: string }[] }).renders[0]?.id as string);
    // A batch larger than the whole limit is taken once the queue is empty (the unit test covers a
    // batch that does not fit beside waiting renders): a 503 it could never get past would be worse.
    const balance = await balanceOf(t, key);
    const larger = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: { renders: [0, 1].map(() => ({ template: "test-card", modifications: [] })) },
    });
    expect(larger.status).toBe(202);
    expect(await balanceOf(t, key)).toBe(balance - 2);
  });
});
