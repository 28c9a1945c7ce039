import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  balanceOf,
  newAccount,
  publishTemplate,
  startTestServer,
  type TestServer,
} from "../api/support.ts";
import { PICTOR_BIN } from "../cli/serve-process.ts";

// The MCP server through the SDK's own client, over both transports: `pictor mcp` (the real CLI as a
// subprocess, stdio, a client of a real server over HTTP) and the server's own /v1/mcp.
let t: TestServer;
let owner: { accountId: string; key: string };
let stranger: { accountId: string; key: string };
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestServer();
  owner = await newAccount(t, 100);
  stranger = await newAccount(t, 100);
  await publishTemplate(t, owner.key);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.close();
});

async function connect(transport: "stdio" | "http", key: string): Promise<Client> {
  const client = new Client({ name: "pictor-test", version: "1.0.0" });
  clients.push(client);
  if (transport === "stdio") {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [PICTOR_BIN, "mcp", "--url", t.url, "--key", key],
        env: { ...(process.env as Record<string, string>), PICTOR_LOG_LEVEL: "warn" },
        stderr: "pipe",
      }),
    );
  } else {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/v1/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
  }
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== "text") throw new Error(`no text content: ${JSON.stringify(result).slice(0, 300)}`);
  return first.text;
}

const modifications = [
  { name: "title", text: "Agents" },
  { name: "bg", color: "#CC3311" },
];

describe.each(["stdio", "http"] as const)("MCP over %s", (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(transport, owner.key);
  });

  it("lists the tools, each with an object input schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "describe_template",
      "get_balance",
      "get_render",
      "list_templates",
      "preflight_render",
      "render",
      "render_batch",
      "search_assets",
      "sign_image_url",
      "upload_asset",
    ]);
    const render = tools.find((tool) => tool.name === "render");
    expect(render?.inputSchema.type).toBe("object");
    // The route's own schema: its fields and limits, without `wait` (the tool always waits).
    expect(Object.keys(render?.inputSchema.properties ?? {})).toContain("modifications");
    expect(Object.keys(render?.inputSchema.properties ?? {})).not.toContain("wait");
    expect(render?.inputSchema.required).toEqual(["template", "modifications"]);
  });

  it("describes a template: frames and slots with types, defaults and folders", async () => {
    const result = await call(client, "describe_template", { template: "test-card" });
    expect(result.isError).toBeFalsy();
    const described = JSON.parse(textOf(result));
    expect(described.key).toBe("test-card");
    expect(described.frames).toEqual([
      { name: "main", width: 200, height: 100 },
      { name: "wide", width: 300, height: 100 },
    ]);
    expect(described.slots).toContainEqual(
      expect.objectContaining({ name: "title", type: "text", default: "Hello", frames: ["main"] }),
    );
    expect(described.slots).toContainEqual(
      expect.objectContaining({ name: "logo", type: "image", folder: "brand" }),
    );
  });

  it("renders: the PNG's pixels equal the same render over HTTP, charged exactly once", async () => {
    const before = await balanceOf(t, owner.key);
    const result = await call(client, "render", { template: "test-card", modifications });
    expect(result.isError).toBeFalsy();
    expect(await balanceOf(t, owner.key)).toBe(before - 1);
    const job = JSON.parse(textOf(result));
    expect(job).toMatchObject({ status: "completed", credits_charged: 1, width: 200, height: 100 });
    expect(job.output_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/o\//);
    const image = result.content.find((c) => c.type === "image");
    if (image?.type !== "image") throw new Error("no image content");
    expect(image.mimeType).toBe("image/png");
    const viaMcp = await sharp(Buffer.from(image.data, "base64")).raw().toBuffer({ resolveWithObject: true });

    const overHttp = await api(t, "POST", "/v1/renders", {
      key: owner.key,
      body: { template: "test-card", modifications, wait: 30 },
    });
    expect(overHttp.status).toBe(200);
    const file = Buffer.from(await (await fetch(overHttp.body.asset_url)).arrayBuffer());
    const viaHttp = await sharp(file).raw().toBuffer({ resolveWithObject: true });
    expect(viaMcp.info).toEqual(viaHttp.info);
    expect(viaMcp.data.equals(viaHttp.data)).toBe(true);

    // get_render answers the same job, with its image.
    const got = await call(client, "get_render", { id: job.id });
    expect(JSON.parse(textOf(got)).id).toBe(job.id);
    expect(got.content.some((c) => c.type === "image")).toBe(true);
  });

  it("answers API errors as tool errors with the API's code, charging nothing", async () => {
    const before = await balanceOf(t, owner.key);
    const unknown = await call(client, "render", {
      template: "test-card",
      modifications: [{ name: "nope", text: "x" }],
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^unknown_slot: /);
    expect(JSON.parse(textOf(unknown).split("\n").slice(1).join("\n")).error).toMatchObject({
      code: "unknown_slot",
      slot: "nope",
    });
    const badScale = await call(client, "render", { template: "test-card", modifications: [], scale: 9 });
    expect(badScale.isError).toBe(true);
    expect(textOf(badScale)).toMatch(/^invalid_scale: /);
    const noId = await call(client, "get_render", {});
    expect(textOf(noId)).toMatch(/^invalid_request: id: /);
    expect(await balanceOf(t, owner.key)).toBe(before);
  });

  it("preflights a render for free", async () => {
    const before = await balanceOf(t, owner.key);
    const result = await call(client, "preflight_render", { template: "test-card", modifications, scale: 2 });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toMatchObject({ valid: true, cost: 4, measured: true });
    expect(await balanceOf(t, owner.key)).toBe(before);
  });

  it("renders a batch, each row charged once", async () => {
    const before = await balanceOf(t, owner.key);
    const result = await call(client, "render_batch", {
      renders: [
        { template: "test-card", modifications },
        { template: "test-card", modifications: [{ name: "bg", color: "red" }] },
      ],
    });
    expect(result.isError).toBeFalsy();
    const batch = JSON.parse(textOf(result));
    expect(batch.batch_id).toMatch(/^bat_/);
    expect(batch.renders[0]).toMatchObject({ index: 0, status: "queued" });
    expect(batch.renders[1]).toMatchObject({ index: 1, error: { code: "invalid_request" } });
    expect(await balanceOf(t, owner.key)).toBe(before - 1);
  });

  it("reads the balance and lists the account's templates, as tools and resources", async () => {
    const balance = JSON.parse(textOf(await call(client, "get_balance", {})));
    expect(balance.credits_balance).toBe(await balanceOf(t, owner.key));
    const listed = JSON.parse(textOf(await call(client, "list_templates", {})));
    // The account's own templates: its starters and the one published here.
    const own = (await api(t, "GET", "/v1/templates?limit=100", { key: owner.key })).body.data;
    expect(listed.data.map((x: { key: string }) => x.key)).toEqual(own.map((x: { key: string }) => x.key));
    expect(own.map((x: { key: string }) => x.key)).toContain("test-card");
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      own.map((x: { key: string }) => `pictor://templates/${x.key}`),
    );
    const read = await client.readResource({ uri: "pictor://templates/test-card" });
    const content = read.contents[0];
    expect(content && "text" in content ? JSON.parse(content.text).slots.length : 0).toBe(4);
  });

  it("uploads an asset, finds it, and signs an image URL that renders", async () => {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: transport === "http" ? "#00ff00" : "#0000ff" },
    })
      .png()
      .toBuffer();
    const uploaded = await call(client, "upload_asset", {
      data_base64: png.toString("base64"),
      filename: `green-${transport}.png`,
      folder: "brand",
      tags: [`mcp-${transport}`],
    });
    expect(uploaded.isError).toBeFalsy();
    const asset = JSON.parse(textOf(uploaded));
    expect(asset).toMatchObject({ folder: "brand/", tags: [`mcp-${transport}`] });
    const found = JSON.parse(textOf(await call(client, "search_assets", { tags: [`mcp-${transport}`] })));
    expect(found.data.map((a: { id: string }) => a.id)).toEqual([asset.id]);
    const neither = await call(client, "upload_asset", { folder: "brand" });
    expect(textOf(neither)).toMatch(/^invalid_request: url: /);

    const key = await api(t, "POST", "/v1/url-signing-keys", { key: owner.key, body: { name: transport } });
    expect(key.status).toBe(201);
    const signed = await call(client, "sign_image_url", {
      key_id: key.body.id,
      template: "test-card",
      values: { title: "Signed", logo: asset.id },
    });
    expect(signed.isError).toBeFalsy();
    const { url } = JSON.parse(textOf(signed));
    expect(url).toMatch(new RegExp(`^${t.url}/i/${key.body.id}/test-card\\.png\\?`));
    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    const strangers = await call(await connect(transport, stranger.key), "sign_image_url", {
      key_id: key.body.id,
      template: "test-card",
    });
    expect(textOf(strangers)).toMatch(/^not_found: /);
  });

  it("another account's key cannot see the templates", async () => {
    const other = await connect(transport, stranger.key);
    const listed = JSON.parse(textOf(await call(other, "list_templates", { include_drafts: true })));
    expect(listed.data.map((x: { key: string }) => x.key)).not.toContain("test-card");
    expect(listed.data.length).toBeGreaterThan(0); // its own starters
    const described = await call(other, "describe_template", { template: "test-card" });
    expect(described.isError).toBe(true);
    expect(textOf(described)).toMatch(/^not_found: /);
    const rendered = await call(other, "render", { template: "test-card", modifications: [] });
    expect(textOf(rendered)).toMatch(/^not_found: /);
    expect((await other.listResources()).resources.map((r) => r.uri)).not.toContain(
      "pictor://templates/test-card",
    );
    expect(await balanceOf(t, stranger.key)).toBe(100);
  });
});

it("/v1/mcp refuses a request without a valid key, like every API route", async () => {
  const res = await fetch(`${t.url}/v1/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(res.status).toBe(401);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
});
