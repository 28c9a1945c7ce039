import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { processLog } from "../../src/adapters/process-log.ts";
import {
  api,
  balanceOf,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
} from "../api/support.ts";

// The output store away for a moment (embedded default: the blob directory): the render is not failed
// and refunded at once, it runs again after a backoff (1 s) and completes once the store is back.

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
});

it("runs a render again when its output could not be stored, and it completes, charged once", async () => {
  const paths = t.data.paths;
  if (!paths) throw new Error("this test needs the embedded default's blob directory");
  const { key } = await newAccount(t, 10);
  await publishTemplate(t, key);
  // One render first, so the outputs directory exists (and is known to the worker).
  expect(
    (
      await api(t, "POST", "/v1/renders", {
        key,
        body: { template: "test-card", modifications: [], wait: true },
      })
    ).status,
  ).toBe(200);

  const outputs = join(paths.blobs, "renders");
  const away = `${outputs}.away`;
  renameSync(outputs, away);
  writeFileSync(outputs, "not a directory"); // every write under renders/ now fails
  // The first run's failure is logged by the queue (this process's log): the store comes back then,
  // so the run after the backoff is the first to find it.
  let failures = 0;
  const log = processLog();
  const error = log.error.bind(log);
  vi.spyOn(log, "error").mockImplementation(((...args: Parameters<typeof log.error>) => {
    if (args.some((arg) => arg === "render job failed") && ++failures === 1) {
      rmSync(outputs);
      renameSync(away, outputs);
    }
    error(...args);
  }) as typeof log.error);
  const res = await api(t, "POST", "/v1/renders", {
    key,
    body: { template: "test-card", modifications: [], wait: 30 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ status: "completed", credits_charged: 1, credits_refunded: 0 });
  expect(failures).toBe(1);
  expect(existsSync(join(outputs, `${res.body.id}.png`))).toBe(true);
  expect(await balanceOf(t, key)).toBe(8);
});
