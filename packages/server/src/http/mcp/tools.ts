import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Type as T, type TObject } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { MAX_BATCH_ROWS } from "../../domain/batches.ts";
import { AssetQueryBody } from "../routes/assets-query.ts";
import { ImportBody } from "../routes/assets-upload.ts";
import { BatchBody } from "../routes/batch-create.ts";
import { BatchRow } from "../routes/batch-row-shape.ts";
import { RenderRequestBody } from "../routes/render-create.ts";
import { TemplatesListQuery } from "../routes/templates-list.ts";
import { SignImageUrlBody } from "../routes/url-signing-keys.ts";
import { IdParams } from "../schemas.ts";
import { type ApiAnswer, type PictorApi, queryString } from "./pictor-api.ts";

/** An image at most this large comes back inside the tool's answer; larger ones by their URLs only. */
export const INLINE_IMAGE_MAX_BYTES = 1024 * 1024;
/** The server holds a render request up to 60 s; the tool then polls up to this long in all. */
const RENDER_WAIT_MS = 120_000;
const POLL_INTERVAL_MS = 500;
const WAIT_S = 60;

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * One MCP tool: its input schema is built from the TypeBox schemas the API's routes validate with,
 * so the two cannot drift, and `run` only calls the API (PictorApi), which validates again, scopes
 * to the key's account, rate-limits and charges as for any HTTP caller.
 */
export interface PictorTool {
  name: string;
  title: string;
  description: string;
  inputSchema: TObject;
  annotations: ToolAnnotations;
  run(api: PictorApi, args: Record<string, unknown>): Promise<CallToolResult>;
}

interface JobLike {
  id: string;
  status: string;
  format?: string;
  asset_url?: string | null;
}

const { wait: _wait, ...renderProperties } = RenderRequestBody.properties;
const { renders: _rows, ...batchProperties } = BatchBody.properties;

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

export const PICTOR_TOOLS: readonly PictorTool[] = [
  {
    name: "list_templates",
    title: "List templates",
    description:
      "The account's published templates (with include_drafts, drafts too): id, key, name, description, status, published_version and frames (name, width, height). One page; pass next_cursor back as cursor for the next.",
    inputSchema: TemplatesListQuery,
    annotations: READ,
    run: async (api, args) =>
      answer(await api.call({ method: "GET", path: `/v1/templates${queryString(args as QueryArgs)}` })),
  },
  {
    name: "describe_template",
    title: "Describe a template",
    description:
      "What a render of this template takes: its frames (name, width, height), published version, and slots (name, type text/image/color, default, folder an image slot's assets must come from, max_length, rich, description, and the frames that use the slot). Fill slots with `modifications` in render.",
    inputSchema: T.Object({ template: IdParams.properties.id }, { additionalProperties: false }),
    annotations: READ,
    run: async (api, args) => {
      const id = segment(args, "template");
      const template = await api.call({ method: "GET", path: `/v1/templates/${id}` });
      if (failed(template)) return toolError(template);
      const schema = await api.call({ method: "GET", path: `/v1/templates/${id}/schema` });
      if (failed(schema)) return toolError(schema);
      const { document: _document, ...summary } = template.body as Record<string, unknown>;
      return json({ ...summary, slots: (schema.body as { slots: unknown }).slots });
    },
  },
  {
    name: "render",
    title: "Render an image",
    description:
      "Renders one image of a published template and waits for it (up to 2 minutes). Costs ceil(scale²) credits (PDF: per page), charged once; a refused request costs nothing. Answers the render job (output_url: a signed link valid for a limited time; asset_url: the permanent link) and, for PNG, JPEG and WebP images of at most 1 MB, the image itself.",
    inputSchema: T.Object(renderProperties, { additionalProperties: false }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (api, args) => {
      const created = await api.call({
        method: "POST",
        path: "/v1/renders",
        json: { ...args, wait: WAIT_S },
      });
      if (failed(created)) return toolError(created);
      const waited = await waitForJob(api, created.body as JobLike);
      return "job" in waited ? jobResult(api, waited.job) : waited.error;
    },
  },
  {
    name: "preflight_render",
    title: "Preflight a render",
    description:
      "Checks a render without charging, storing or returning an image: valid or the exact error a render would get, its cost in credits, and per layer what drawing it reports (text shrunk from/to px, truncated after N lines, glyphs that fell back, unknown fonts, images enlarged more than 1.5x with the factor) and the slots that used their defaults. Same fields as render.",
    inputSchema: T.Object(renderProperties, { additionalProperties: false }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    run: async (api, args) =>
      answer(await api.call({ method: "POST", path: "/v1/renders/preflight", json: args })),
  },
  {
    name: "render_batch",
    title: "Render a batch",
    description:
      "Renders up to 1,000 images in one call without waiting: each row (the render tool's fields, and an optional idempotency_key of its own) is validated and charged on its own, in order; a refused row costs nothing and the next proceeds. Answers batch_id and one entry per row (the job, or its error). Follow the renders with get_render.",
    inputSchema: T.Object(
      {
        ...batchProperties,
        renders: T.Array(BatchRow, {
          minItems: 1,
          maxItems: MAX_BATCH_ROWS,
          description: BatchBody.properties.renders.description,
        }),
      },
      { additionalProperties: false },
    ),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (api, args) =>
      answer(await api.call({ method: "POST", path: "/v1/renders/batch", json: args })),
  },
  {
    name: "get_render",
    title: "Get a render",
    description:
      "A render job by id (rnd_…): its status (queued, rendering, completed, failed), links, credits charged and refunded, warnings; a completed PNG, JPEG or WebP image of at most 1 MB comes with it.",
    inputSchema: T.Object({ id: IdParams.properties.id }, { additionalProperties: false }),
    annotations: READ,
    run: async (api, args) => {
      const got = await api.call({
        method: "GET",
        path: `/v1/renders/${segment(args, "id")}`,
      });
      if (failed(got)) return toolError(got);
      return jobResult(api, got.body as JobLike);
    },
  },
  {
    name: "sign_image_url",
    title: "Sign an on-demand image URL",
    description:
      "A signed URL (/i/…) that renders a published template with the given slot values when first requested, and is served from cache after: for og:image tags, <img> and e-mails. Signed on the server with the account's URL-signing key key_id (usk_…, POST /v1/url-signing-keys), so no secret passes through the agent. Nothing is charged until the URL is first requested.",
    inputSchema: T.Object(
      {
        key_id: T.String({ ...IdParams.properties.id, description: "usk_… of a URL-signing key" }),
        ...SignImageUrlBody.properties,
      },
      { additionalProperties: false },
    ),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run: async (api, args) => {
      const { key_id: _keyId, ...body } = args;
      const path = `/v1/url-signing-keys/${segment(args, "key_id")}/sign`;
      return answer(await api.call({ method: "POST", path, json: body }));
    },
  },
  {
    name: "search_assets",
    title: "Search assets",
    description:
      "The account's uploaded images and fonts by tags (all of, any of), metadata (every key equal), folder (recursive), content type and creation time; newest first, one page (next_cursor). Use an asset's id or url as an image slot's value.",
    inputSchema: AssetQueryBody,
    annotations: READ,
    run: async (api, args) =>
      answer(await api.call({ method: "POST", path: "/v1/assets/query", json: args })),
  },
  {
    name: "upload_asset",
    title: "Upload an asset",
    description:
      "Adds an image (PNG, JPEG, WebP, GIF) or a font (TTF, OTF, WOFF, WOFF2) to the account's library, either fetched from `url` or given as `data_base64` with its `filename`. Identical bytes already in the account answer the existing asset. Answers the asset (id, url, folder, tags, size).",
    inputSchema: T.Object(
      {
        ...ImportBody.properties,
        url: T.Optional(ImportBody.properties.url),
        data_base64: T.Optional(
          T.String({
            minLength: 1,
            maxLength: 35_000_000,
            description: "The file's bytes, base64 (instead of url)",
          }),
        ),
        filename: T.Optional(
          T.String({ minLength: 1, maxLength: 200, description: "With data_base64: the file's name" }),
        ),
      },
      { additionalProperties: false },
    ),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: async (api, args) => {
      const {
        data_base64: data,
        filename,
        ...fields
      } = args as Record<string, unknown> & {
        data_base64?: string;
        filename?: string;
      };
      if ((data === undefined) === (fields.url === undefined)) {
        return invalidArgument("url", "give exactly one of url and data_base64");
      }
      if (data === undefined) {
        return answer(await api.call({ method: "POST", path: "/v1/assets/import", json: fields }));
      }
      if (filename === undefined) return invalidArgument("filename", "is required with data_base64");
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        if (value !== undefined) form.append(name, typeof value === "string" ? value : JSON.stringify(value));
      }
      form.append("file", new Blob([Buffer.from(data, "base64")]), filename);
      return answer(await api.call({ method: "POST", path: "/v1/assets", form }));
    },
  },
  {
    name: "get_balance",
    title: "Account balance",
    description:
      "The account this key belongs to: id, name and credits_balance (a render costs ceil(scale²) credits per image or PDF page).",
    inputSchema: T.Object({}, { additionalProperties: false }),
    annotations: READ,
    run: async (api) => answer(await api.call({ method: "GET", path: "/v1/account" })),
  },
];

type QueryArgs = Record<string, string | number | boolean | undefined>;

/**
 * Runs a tool. The API validates the arguments (they are its request body or query) and answers
 * exactly as it would over HTTP; only values that go into a URL path are checked here first. A
 * failure to reach the API is a tool error too, never a crash of the server.
 */
export async function runTool(
  tool: PictorTool,
  api: PictorApi,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    return await tool.run(api, args);
  } catch (error) {
    if (error instanceof InvalidArgument) return invalidArgument(error.path, error.message);
    return errorResult({
      code: "unavailable",
      message: `The Pictor API could not be reached: ${(error as Error).message}`,
    });
  }
}

class InvalidArgument extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}

const checkSegment = TypeCompiler.Compile(IdParams.properties.id);

/** An argument that names a resource in the URL path (`/v1/renders/<id>`), encoded. */
function segment(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (!checkSegment.Check(value)) throw new InvalidArgument(name, "must be a string of 1 to 200 characters");
  return encodeURIComponent(value);
}

function failed(answer: ApiAnswer): boolean {
  return answer.status >= 400;
}

function answer(got: ApiAnswer): CallToolResult {
  return failed(got) ? toolError(got) : json(got.body);
}

function json(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }] };
}

/** The API's error body as an MCP tool error: its code and message first, then every detail. */
function toolError(got: ApiAnswer): CallToolResult {
  const error = (got.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (error && typeof error.code === "string") return errorResult(error as { code: string; message: string });
  return errorResult({
    code: got.status >= 500 ? "internal_error" : "invalid_request",
    message: `HTTP ${got.status}`,
  });
}

function errorResult(error: { code: string; message: string } & Record<string, unknown>): CallToolResult {
  return {
    isError: true,
    content: [
      { type: "text", text: `${error.code}: ${error.message}\n${JSON.stringify({ error }, null, 2)}` },
    ],
  };
}

function invalidArgument(path: string, message: string): CallToolResult {
  return errorResult({
    code: "invalid_request",
    message: `${path}: ${message}`,
    errors: [{ path, message }],
  });
}

/** Polls a render until it ends or RENDER_WAIT_MS passed; the job, or the tool error of a failed call. */
async function waitForJob(
  api: PictorApi,
  first: JobLike,
): Promise<{ job: JobLike } | { error: CallToolResult }> {
  let job = first;
  const deadline = Date.now() + RENDER_WAIT_MS;
  while ((job.status === "queued" || job.status === "rendering") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    const got = await api.call({ method: "GET", path: `/v1/renders/${encodeURIComponent(job.id)}` });
    if (failed(got)) return { error: toolError(got) };
    job = got.body as JobLike;
  }
  return { job };
}

const INLINE_FORMATS = new Set(["png", "jpg", "jpeg", "webp"]);

/** The job as JSON, and its image when it is completed, an image (not a PDF) and small enough. */
async function jobResult(api: PictorApi, job: JobLike): Promise<CallToolResult> {
  const result = json(job);
  if (job.status !== "completed" || !job.asset_url || !INLINE_FORMATS.has(job.format ?? "")) return result;
  const file = await api.download(job.asset_url, INLINE_IMAGE_MAX_BYTES);
  if (file) {
    result.content.push({
      type: "image",
      data: Buffer.from(file.bytes).toString("base64"),
      mimeType: file.contentType.split(";")[0] ?? "image/png",
    });
  }
  return result;
}
