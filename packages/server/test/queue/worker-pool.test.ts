import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { testTemplate } from "../api/support.ts";
import { useTempWorkerPool } from "../support/worker-pool.ts";

const temp = useTempWorkerPool("pictor-pool-", 1);

const task = (outputKey: string, documentKey = "tpl_pool@1") => ({
  accountId: "acct_pool",
  documentKey,
  document: testTemplate() as never,
  frame: "main",
  values: { title: "pool" },
  scale: 1,
  format: "png" as const,
  quality: null,
  outputKey,
});

it("a worker writes the output blob and reports its size, then the SHA-256 of the stored bytes", async () => {
  const result = await temp.pool.run(task("renders/one.png"));
  expect(result).toMatchObject({ ok: true, width: 200, height: 100, contentType: "image/png" });
  if (!result.ok) throw new Error("render failed");
  const bytes = await temp.blobs.get("renders/one.png");
  expect(result.byteSize).toBe(bytes?.byteLength);
  expect(await result.sha256).toBe(
    createHash("sha256")
      .update(bytes as Uint8Array)
      .digest("hex"),
  );
});

it("a worker holding a second task draws it while the first encodes; every output is the lone render's", async () => {
  const lone = await temp.pool.run(task("renders/lone.png"));
  expect(lone.ok).toBe(true);
  const expected = await temp.blobs.get("renders/lone.png");
  // One worker, three tasks at once: the second is sent behind the first (queuedBehind), the third waits.
  const results = await Promise.all([1, 2, 3].map((i) => temp.pool.run(task(`renders/piped-${i}.png`))));
  expect(results.map((r) => r.ok)).toEqual([true, true, true]);
  for (const i of [1, 2, 3]) expect(await temp.blobs.get(`renders/piped-${i}.png`)).toEqual(expected);
});

it("both tasks a dying worker held are run again on its replacement", async () => {
  const running = [temp.pool.run(task("renders/held-1.png")), temp.pool.run(task("renders/held-2.png"))];
  await temp.pool.crashWorker(0);
  const results = await Promise.all(running);
  expect(results.map((r) => r.ok)).toEqual([true, true]);
  expect(await temp.blobs.get("renders/held-2.png")).not.toBeNull();
});

it("a hash the worker never posted (it died first) resolves to null instead of hanging", async () => {
  const result = await temp.pool.run(task("renders/unhashed.png"));
  if (!result.ok) throw new Error("render failed");
  // The hash message may already be on its way; either it arrives or the death settles it.
  await temp.pool.crashWorker(0);
  const sha256 = await result.sha256;
  expect(sha256 === null || /^[0-9a-f]{64}$/.test(sha256)).toBe(true);
});

it("a task whose worker crashes is run again on the replacement and completes once", async () => {
  const running = temp.pool.run(task("renders/two.png"));
  await temp.pool.crashWorker(0);
  const result = await running;
  expect(result.ok).toBe(true);
  expect(await temp.blobs.get("renders/two.png")).not.toBeNull();
});

it("a worker renders a document it holds, and still after the pool made it forget the others", async () => {
  // More versions than a worker holds: the pool sends forgetDocuments and the documents again.
  for (let v = 1; v <= 70; v++) {
    const result = await temp.pool.run(task(`renders/v${v}.png`, `tpl_many@${v}`));
    expect(result.ok).toBe(true);
  }
  const again = await temp.pool.run(task("renders/again.png", "tpl_many@1"));
  expect(again).toMatchObject({ ok: true, width: 200, height: 100 });
});
