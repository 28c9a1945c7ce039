import swagger from "@fastify/swagger";
import type { FastifyInstance, RouteOptions } from "fastify";
import { API_ERROR_CODES } from "../errors.ts";
import { renderDocsPage } from "./docs-page.ts";
import { globalPlugin } from "./global-plugin.ts";

export const ERROR_BODY_SCHEMA_ID = "ErrorBody";

/** The one error shape, shared by every route's error responses (component `ErrorBody`). */
export const errorBodySchema = {
  $id: ERROR_BODY_SCHEMA_ID,
  type: "object",
  description: "Every error response. Details specific to a code are extra flat fields of `error`.",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "request_id"],
      // Open so that details (`slot`, `required`, `balance`, `errors`, `render_id`) are serialised.
      additionalProperties: true,
      properties: {
        code: { type: "string", enum: API_ERROR_CODES, description: "Stable, machine-readable." },
        message: { type: "string", description: "For humans; may change." },
        request_id: { type: "string", description: "Equals the X-Request-Id response header." },
        errors: {
          type: "array",
          description: "Validation failures: the JSON path of the field and what is wrong with it.",
          items: {
            type: "object",
            required: ["path", "message"],
            properties: { path: { type: "string" }, message: { type: "string" } },
          },
        },
      },
    },
  },
} as const;

/** A response entry referring to ErrorBody, e.g. `response: { 200: Job, ...errorResponses(402, 422) }`. */
export function errorResponses(...statuses: number[]): Record<number, { $ref: string }> {
  const out: Record<number, { $ref: string }> = {};
  for (const status of statuses) out[status] = { $ref: `${ERROR_BODY_SCHEMA_ID}#` };
  return out;
}

export interface OpenApiOptions {
  title?: string;
  version?: string;
  description?: string;
  /** Base URLs listed under `servers`. Default: relative `/` (same origin as the document). */
  servers?: { url: string; description?: string }[];
  /** Path of the JSON document. Default `/v1/openapi.json`. */
  documentPath?: string;
  /** Path of the HTML reference. Default `/docs`. */
  docsPath?: string;
}

function hasErrorResponse(response: Record<string, unknown>): boolean {
  return Object.keys(response).some((status) => /^[45]/.test(status) || status === "default");
}

/**
 * OpenAPI 3.1 from the routes' own schemas (@fastify/swagger, dynamic mode), served at
 * GET /v1/openapi.json, plus a self-contained HTML reference at GET /docs (no CDN, no script).
 * Register BEFORE the routes: the document is built from routes added afterwards. Routes that
 * declare no error response get `4XX`/`5XX` → ErrorBody, so every operation documents its errors.
 */
export const openApiPlugin = globalPlugin<OpenApiOptions>("pictor-openapi", async (app, options) => {
  const documentPath = options.documentPath ?? "/v1/openapi.json";
  const docsPath = options.docsPath ?? "/docs";
  app.addSchema(errorBodySchema);

  app.addHook("onRoute", (route: RouteOptions) => {
    const schema = route.schema as (RouteOptions["schema"] & { hide?: boolean }) | undefined;
    if (!schema || schema.hide) return;
    const response = (schema.response ?? {}) as Record<string, unknown>;
    if (!hasErrorResponse(response)) {
      schema.response = {
        ...response,
        "4xx": { $ref: `${ERROR_BODY_SCHEMA_ID}#` },
        "5xx": { $ref: `${ERROR_BODY_SCHEMA_ID}#` },
      };
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: options.title ?? "Pictor API",
        version: options.version ?? "1.0.0",
        description:
          options.description ??
          "Render templates to PNG, JPEG or WebP over HTTP. Authenticate with `Authorization: Bearer sk_live_…`. " +
            'Every response carries `X-Request-Id`; errors are `{ "error": { code, message, request_id, … } }`.',
      },
      servers: options.servers ?? [{ url: "/", description: "This server" }],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", description: "A secret API key, `sk_live_…`." },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: {
      // Shared schemas appear under their own $id (`#/components/schemas/ErrorBody`), not `def-0`.
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === "string" ? json.$id : `def-${i}`;
      },
    },
  });

  let docsHtml: string | undefined;
  const document = (instance: FastifyInstance) => instance.swagger() as unknown as Record<string, unknown>;

  app.get(documentPath, { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(document(app)),
  );
  app.get(docsPath, { schema: { hide: true }, config: { rateLimit: false } }, async (_request, reply) => {
    docsHtml ??= renderDocsPage(document(app), documentPath);
    return reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
      .send(docsHtml);
  });
});
