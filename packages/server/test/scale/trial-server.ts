import { join } from "node:path";
import { expect } from "vitest";
import { readServeConfig } from "../../src/main/config.ts";
import type { RunningServer } from "../../src/main/running-server.ts";
import { startServer } from "../../src/main/serve.ts";
import { api } from "../api/support.ts";
import { tinyTemplate } from "../callbacks/support.ts";

/**
 * `pictor serve` in-process (one render thread) on a fresh data dir and a fresh database, as the outage
 * tests need it: its first start's trial account (30 credits) with the 64x64 "tiny" template published.
 */
export async function startTrialServer(
  dir: string,
  env: Record<string, string>,
): Promise<{ server: RunningServer; apiKey: string; accountId: string }> {
  const config = readServeConfig(
    { port: "0", data: dir, workers: "1", examples: join(dir, "none") },
    { PICTOR_LOG_LEVEL: "silent", ...env },
  );
  const server = await startServer(config);
  await server.workersReady();
  if (!server.firstStart) throw new Error("expected the first start's trial account");
  const { apiKey, accountId } = server.firstStart;
  const published = await api(server, "POST", "/v1/templates", {
    key: apiKey,
    body: { document: tinyTemplate(), publish: true },
  });
  expect(published.status).toBe(201);
  return { server, apiKey, accountId };
}
