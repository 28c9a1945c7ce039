import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningServer } from "../../src/main/running-server.ts";
import { type CapturedLog, scrape, startLoggedServer } from "../operations/support.ts";

// An MCP tool call over /v1/mcp is one request: the API calls its tool makes inside the process are
// part of it, so the request log has one line (naming the tool, and the render it created) and the
// HTTP metrics count the POST /v1/mcp alone, never a GET /v1/account or POST /v1/renders of its own.
const dir = mkdtempSync(join(tmpdir(), "pictor-mcp-one-"));
let server: RunningServer;
let apiKey: string;
let log: CapturedLog;
beforeAll(async () => {
  ({ server, apiKey, log } = await startLoggedServer(dir, {}));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("logs and counts one request per tool call, with the tool's name and its render", async () => {
  const client = new Client({ name: "pictor-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  const before = await scrape(server.url);
  const linesBefore = log.lines().length;

  const balance = (await client.callTool({ name: "get_balance", arguments: {} })) as CallToolResult;
  expect(balance.isError ?? false).toBe(false);
  const render = (await client.callTool({
    name: "render",
    arguments: { template: "tiny", modifications: [] },
  })) as CallToolResult;
  expect(render.isError ?? false).toBe(false);
  const job = JSON.parse(
    (render.content.find((c) => c.type === "text") as { text: string } | undefined)?.text ?? "{}",
  ) as { id?: string; status?: string };
  expect(job.status).toBe("completed");

  const lines = log
    .lines()
    .slice(linesBefore)
    .filter((line) => line.msg === "request completed");
  expect(lines.map((line) => [(line.req as { url: string }).url, line.tool])).toEqual([
    ["/v1/mcp", "get_balance"],
    ["/v1/mcp", "render"],
  ]);
  expect(lines[1]).toMatchObject({ render_id: job.id, res: { statusCode: 200 } });

  const after = await scrape(server.url);
  const moved = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
  const count = (method: string, route: string, status: string) =>
    moved(
      `pictor_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`,
    );
  expect(count("POST", "/v1/mcp", "200")).toBe(2);
  expect(count("GET", "/v1/account", "200")).toBe(0);
  expect(count("POST", "/v1/renders", "200")).toBe(0);
  expect(count("POST", "/v1/renders", "202")).toBe(0);
  await client.close().catch(() => {});
}, 60_000);
