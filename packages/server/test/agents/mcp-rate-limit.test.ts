import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { api, newAccount, startTestServer, type TestServer } from "../api/support.ts";

// /v1/mcp is limited like the API: each MCP request takes one token of the key's bucket, whatever API
// calls its tool makes inside (those are part of it, not requests of their own).
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { PICTOR_RATE_LIMIT_BURST: "8", PICTOR_RATE_LIMIT_PER_SECOND: "0.01" } });
});
afterAll(async () => {
  await t?.close();
});

it("one MCP tool call spends one token of the key's API budget, and the API then refuses the key too", async () => {
  const { key } = await newAccount(t, 10);
  const client = new Client({ name: "pictor-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  // The handshake took 3 of the 8 (initialize, its notification, the client's probe for a stream);
  // each get_balance takes 1: the MCP request (the GET /v1/account it makes inside is part of it).
  const outcomes: string[] = [];
  for (let i = 0; i < 6; i++) {
    try {
      const result = (await client.callTool({ name: "get_balance", arguments: {} })) as CallToolResult;
      const first = result.content[0];
      outcomes.push(result.isError && first?.type === "text" ? (first.text.split(":")[0] ?? "") : "ok");
    } catch (error) {
      outcomes.push(/rate_limited|429/.test(String(error)) ? "http 429" : String(error));
    }
  }
  expect(outcomes).toEqual(["ok", "ok", "ok", "ok", "ok", "http 429"]);
  const direct = await api(t, "GET", "/v1/account", { key });
  expect(direct.status).toBe(429);
  expect(direct.body.error.code).toBe("rate_limited");
  // The in-process calls' header links to nothing when sent from outside: no way past the limit.
  const forged = await fetch(`${t.url}/v1/account`, {
    headers: { authorization: `Bearer ${key}`, "x-pictor-inner-call": "x".repeat(32) },
  });
  expect(forged.status).toBe(429);
  await client.close().catch(() => {});
});
