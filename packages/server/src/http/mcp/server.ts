import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { PictorApi } from "./pictor-api.ts";
import { PICTOR_TOOLS, runTool } from "./tools.ts";

const TEMPLATE_URI = "pictor://templates/";
/** Templates listed as resources: the first pages only (an agent searches further with list_templates). */
const MAX_LISTED_TEMPLATES = 500;

const INSTRUCTIONS =
  "Pictor renders images from templates. list_templates, then describe_template to learn a template's slots, then render with modifications [{ name, text | image_url | color }]. Renders cost credits (get_balance); refused requests cost nothing.";

/**
 * The MCP server of one API caller: the tools of tools.ts and the account's templates as resources,
 * over whatever transport the caller connects with (stdio in `pictor mcp`, Streamable HTTP at
 * /v1/mcp). Every answer comes from `api`, so it is what this caller's key may see.
 */
export function createPictorMcpServer(api: PictorApi): Server {
  const server = new Server(
    { name: "pictor", title: "Pictor", version: pictorVersion() },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const tools = new Map(PICTOR_TOOLS.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: PICTOR_TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      // TypeBox schemas are JSON Schema; the round trip drops TypeBox's own symbol keys.
      inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)),
      annotations: { title: tool.title, ...tool.annotations },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool named '${request.params.name}'.`);
    return runTool(tool, api, request.params.arguments ?? {});
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: `${TEMPLATE_URI}{template}`,
        name: "template",
        title: "A template's frames and slots",
        description: "What describe_template answers, for a template key or id",
        mimeType: "application/json",
      },
    ],
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const resources = [];
    let cursor: string | null = null;
    do {
      const query = cursor === null ? "?limit=100" : `?limit=100&cursor=${encodeURIComponent(cursor)}`;
      const page = await api.call({ method: "GET", path: `/v1/templates${query}` });
      if (page.status >= 400) throw apiFailure(page.body);
      const body = page.body as {
        data: { key: string; name: string; description: string | null }[];
        next_cursor: string | null;
      };
      for (const template of body.data) {
        resources.push({
          uri: TEMPLATE_URI + encodeURIComponent(template.key),
          name: template.key,
          title: template.name,
          ...(template.description ? { description: template.description } : {}),
          mimeType: "application/json",
        });
      }
      cursor = body.next_cursor;
    } while (cursor !== null && resources.length < MAX_LISTED_TEMPLATES);
    return { resources };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    if (!uri.startsWith(TEMPLATE_URI)) throw new McpError(ErrorCode.InvalidParams, `No resource '${uri}'.`);
    const template = decodeURIComponent(uri.slice(TEMPLATE_URI.length));
    const describe = tools.get("describe_template");
    if (!describe) throw new McpError(ErrorCode.InternalError, "describe_template is missing");
    const result = await runTool(describe, api, { template });
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    if (result.isError) throw new McpError(ErrorCode.InvalidParams, text.split("\n")[0] ?? "not found");
    return { contents: [{ uri, mimeType: "application/json", text }] };
  });

  return server;
}

let version: string | undefined;

/** The version of this checkout (the workspace's package.json). */
function pictorVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL("../../../../../package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;
  return version;
}

function apiFailure(body: unknown): McpError {
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  return new McpError(
    ErrorCode.InternalError,
    `${error?.code ?? "internal_error"}: ${error?.message ?? "failed"}`,
  );
}
