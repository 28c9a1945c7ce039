import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Command } from "commander";
import { fetchPictorApi } from "../http/mcp/fetch-api.ts";
import { createPictorMcpServer } from "../http/mcp/server.ts";
import { UsageError } from "./usage-error.ts";

/**
 * `pictor mcp --url … --key …`: the MCP server over stdio, for a desktop agent (Claude Desktop,
 * Cursor, …) that starts it as a subprocess. It is a client of any Pictor server over HTTP: the same
 * tools as the server's own `/v1/mcp`, answered by that server's API with this key. stdout carries
 * the protocol only; nothing else is printed there.
 */
export function registerMcpCommand(program: Command): void {
  program
    .command("mcp")
    .description("serve the MCP tools over stdio, as a client of a Pictor server (docs/agents.md)")
    .option("--url <url>", "server URL (PICTOR_URL)", process.env.PICTOR_URL ?? "http://127.0.0.1:8080")
    .option("--key <key>", "API key (PICTOR_API_KEY)")
    .action(async (flags: { url: string; key?: string }) => {
      const apiKey = flags.key ?? process.env.PICTOR_API_KEY;
      if (!apiKey) throw new UsageError("an API key is needed: --key sk_live_… or PICTOR_API_KEY");
      if (!/^https?:\/\//.test(flags.url))
        throw new UsageError(`--url must be an http(s) URL, not '${flags.url}'`);
      const server = createPictorMcpServer(fetchPictorApi({ baseUrl: flags.url, apiKey }));
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
        process.stdin.once("end", resolve);
      });
      await server.connect(transport);
      await closed;
      await server.close();
    });
}
