import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { api, newAccount, startTestServer, type TestServer } from "../api/support.ts";

// /v1/mcp is limited like the API: its requests, and the API requests its tools make, come out of the
// key's bucket.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { PICTOR_RATE_LIMIT_BURST: "8", PICTOR_RATE_LIMIT_PER_SECOND: "0.01" } });
});
afterAll(async () => {
  await t?.close();
});

it("a key's MCP calls spend its API budget, and the API then refuses the key too", async () => {
  const { key } = await newAccount(t, 10);
  const client = new Client({ name: "pictor-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  // The handshake took 3 of the 8 (initialize, its notification, the client's probe for a stream);
  // each get_balance takes 2 (the MCP request, and the GET /v1/account it makes).
  const outcomes: string[] = [];
  for (let i = 0; i < 4; i++) {
    try {
      const result = (await client.callTool({ name: "get_balance", arguments: {} })) as CallToolResult;
      const first = result.content[0];
      outcomes.push(result.isError && first?.type === "text" ? (first.text.split(":")[0] ?? "") : "ok");
    } catch (error) {
      outcomes.push(/rate_limited|429/.test(String(error)) ? "http 429" : String(error));
    }
  }
  expect(outcomes.slice(0, 2)).toEqual(["ok", "ok"]);
  expect(outcomes[2]).toBe("rate_limited");
  expect(["rate_limited", "http 429"]).toContain(outcomes[3]);
  const direct = await api(t, "GET", "/v1/account", { key });
  expect(direct.status).toBe(429);
  expect(direct.body.error.code).toBe("rate_limited");
  await client.close().catch(() => {});
});
