import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Type as T } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../app-types.ts";
import { ApiError, errorBody } from "../errors.ts";
import { injectPictorApi } from "../mcp/inject-api.ts";
import { createPictorMcpServer } from "../mcp/server.ts";

/**
 * `/v1/mcp`: the MCP server (http/mcp/) over Streamable HTTP, authenticated by the API key like every
 * route (the auth hook ran before this) and rate-limited per key. Stateless: each POST carries its
 * own JSON-RPC message and gets a JSON answer, so any API process can answer any request; the tools
 * call this app's routes as the caller (injectPictorApi), so they see only the key's account and
 * every render goes through the render service, charged like any other.
 */
export function registerMcp(app: App): void {
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const api = injectPictorApi(app, request);
    const server = createPictorMcpServer(api);
    request.toolName = toolNameOf(request.body);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") headers.set(name, value);
      }
      const webRequest = new Request(`http://mcp.invalid${request.url}`, { method: request.method, headers });
      const response = await transport.handleRequest(webRequest, { parsedBody: request.body });
      const body = await response.text();
      // The transport refuses malformed exchanges (wrong Accept or Content-Type, not JSON-RPC) with
      // a JSON-RPC error of its own: answered in the API's error shape, like any refused request.
      if (response.status >= 400)
        throw new ApiError("invalid_request", transportMessage(body, response.status));
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      return reply.send(body === "" ? undefined : body);
    } finally {
      await server.close();
      api.close();
    }
  };
  const schema = {
    summary:
      "The MCP (Model Context Protocol) server, Streamable HTTP in stateless JSON mode: tools to list and describe templates, render, batch, get renders, sign image URLs, search and upload assets and read the balance (docs/agents.md)",
    tags: ["agents"],
    body: T.Object(
      { jsonrpc: T.Literal("2.0") },
      {
        additionalProperties: true,
        description: "One JSON-RPC 2.0 message of the MCP protocol (a request, notification or response)",
      },
    ),
    response: {
      200: T.Object(
        { jsonrpc: T.Literal("2.0"), id: T.Union([T.String(), T.Number()]) },
        { additionalProperties: true, description: "The JSON-RPC answer (result or error) to the request" },
      ),
      202: T.Null({ description: "A notification or response from the client, accepted; no body" }),
    },
  };
  app.post("/v1/mcp", { schema }, handle);
  // No server-initiated stream and no session to end in stateless mode: the transport answers 405.
  // Clients probe for a server stream with GET (405 tells them there is none) and may end their
  // session with DELETE. Left out of the OpenAPI document: they only ever answer 405.
  const notAllowed = async (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header("Allow", "POST")
      .send(
        errorBody(
          "invalid_request",
          "This MCP endpoint is stateless: POST one JSON-RPC message per request; there is no stream to GET and no session to DELETE.",
          request.id,
        ),
      );
  app.get("/v1/mcp", { schema: { hide: true } }, notAllowed);
  app.delete("/v1/mcp", { schema: { hide: true } }, notAllowed);
}

/** The tool a `tools/call` message calls, for the request's log line; "" for any other message. */
function toolNameOf(body: unknown): string {
  const message = body as { method?: unknown; params?: { name?: unknown } } | null;
  const name = message?.method === "tools/call" ? message.params?.name : undefined;
  return typeof name === "string" ? name.slice(0, 64) : "";
}

function transportMessage(body: string, status: number): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return `${message}.`;
  } catch {}
  return `The MCP request was refused (HTTP ${status}).`;
}
