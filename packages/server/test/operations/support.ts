import { join } from "node:path";
import { PassThrough } from "node:stream";
import { expect } from "vitest";
import { readServeConfig } from "../../src/main/config.ts";
import type { RunningServer, ServeTestHooks } from "../../src/main/running-server.ts";
import { startServer } from "../../src/main/serve.ts";
import { publishTemplate } from "../api/support.ts";
import { tinyTemplate } from "../callbacks/support.ts";

/** A process's log lines as written, parsed. */
export interface CapturedLog {
  stream: PassThrough;
  lines(): Record<string, unknown>[];
  text(): string;
}

export function captureLog(): CapturedLog {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  return {
    stream,
    text: () => text,
    lines: () =>
      text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/**
 * `pictor serve` in-process (one render thread, info logs captured) on a fresh data dir: its first
 * start's trial account with the 64x64 "tiny" template published.
 */
export async function startLoggedServer(
  dir: string,
  env: Record<string, string>,
  hooks: ServeTestHooks = {},
): Promise<{ server: RunningServer; apiKey: string; accountId: string; log: CapturedLog }> {
  const log = captureLog();
  const config = readServeConfig(
    { port: "0", data: dir, workers: "1", examples: join(dir, "none") },
    { PICTOR_LOG_LEVEL: "info", ...env },
  );
  const server = await startServer(config, { ...hooks, logStream: log.stream });
  await server.workersReady();
  if (!server.firstStart) throw new Error("expected the first start's trial account");
  const { apiKey, accountId } = server.firstStart;
  await publishTemplate(server, apiKey, tinyTemplate());
  return { server, apiKey, accountId, log };
}

/** Polls `url` until it answers `status` (a probe's state changes within a second or two). */
export async function untilStatus(url: string, status: number, timeoutMs = 30_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(url).catch(() => null);
    if (res?.status === status) return res;
    await res?.body?.cancel();
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer ${status} (last: ${res?.status ?? "no answer"})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The samples of a Prometheus exposition: `name{labels}` to value. */
export function samples(exposition: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of exposition.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

export async function scrape(url: string, token?: string): Promise<Map<string, number>> {
  const res = await fetch(`${url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  return samples(await res.text());
}
