import swagger from "@fastify/swagger";
import type { FastifyInstance, RouteOptions } from "fastify";
import { API_ERROR_CODES } from "../errors.ts";
import { withDeclaredResponses } from "./declared-responses.ts";
import { renderDocsPage } from "./docs-page.ts";
import { withComponents, withDocumentedSchemas } from "./documented-schemas.ts";
import { globalPlugin } from "./global-plugin.ts";
import { withNamedSchemas } from "./named-schemas.ts";
import { withOperationIds } from "./operation-ids.ts";

export const ERROR_BODY_SCHEMA_ID = "ErrorBody";

/** The `Idempotency-Key` request header as every POST that creates work documents it. */
export const IDEMPOTENCY_KEY_HEADER_SCHEMA = {
  type: "string",
  description:
    "Up to 255 printable ASCII characters, unique per intended operation (a UUID). The first answer is kept for 24 h " +
    "and replayed to any retry with the same key and body (with `Idempotent-Replayed: true`), so a retry is never " +
    "charged twice; if the server died after accepting, the retry resumes that same render or batch. The same key " +
    "with another body is 422 `idempotency_key_reused`; while the first request still runs, 409 `idempotency_key_in_use`.",
} as const;

/** The RFC 7240 `Prefer` header of POST /v1/renders. */
export const PREFER_HEADER_SCHEMA = {
  type: "string",
  description:
    '`wait=N` (seconds, at most 60): wait for the image like `"wait": N` in the body. Completed in time: 200 with ' +
    "the completed job and `Preference-Applied: wait=N`; still running at the deadline: 202 as without it.",
} as const;

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
        slot: {
          type: "string",
          description: "`unknown_slot`, `image_out_of_folder`, value errors: the slot concerned.",
        },
        required: { type: "integer", description: "`insufficient_credits`: the credits the request costs." },
        balance: { type: "integer", description: "`insufficient_credits`: the account's balance." },
        render_id: {
          type: "string",
          description:
            "A waited-for render that failed (`image_fetch_failed`, `image_invalid`, …): its id; credits were refunded.",
        },
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
  /** Schemas for the untyped placeholders routes declare, by their title (plugins/documented-schemas.ts). */
  documentedValues?: Readonly<Record<string, Record<string, unknown>>>;
  /** Components those schemas refer to, built when the document is first served. */
  documentedComponents?: () => Record<string, Record<string, unknown>>;
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
        license: { name: "MIT", identifier: "MIT" },
        version: options.version ?? "1.0.0",
        description:
          options.description ??
          "Render templates to PNG, JPEG or WebP over HTTP. Authenticate with `Authorization: Bearer sk_live_…`. " +
            'Every response carries `X-Request-Id`; errors are `{ "error": { code, message, request_id, … } }`. ' +
            "429 `rate_limited` and 503 `unavailable` carry `Retry-After` (seconds; nothing was charged): retry after it. " +
            "Every response to an API key carries `RateLimit-Policy` and `RateLimit` (IETF draft). POSTs that create work " +
            "take an `Idempotency-Key` header so a retry is never charged twice; a replayed answer carries " +
            "`Idempotent-Replayed: true` and `Original-Request-Id`. A 202 render carries `Location: /v1/renders/{id}`.",
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
  // Built on the first request: the routes are all registered by then (none can be added once the
  // server listens), and shaping it (names, statuses, headers) is too much work for every request.
  let documentText: string | undefined;
  const document = (instance: FastifyInstance) =>
    withDeclaredResponses(
      withNamedSchemas(
        withComponents(
          withDocumentedSchemas(
            withOperationIds(
              structuredClone(instance.swagger()) as unknown as {
                paths?: Record<string, Record<string, unknown>>;
                components?: Record<string, unknown>;
              },
            ),
            options.documentedValues ?? {},
          ),
          options.documentedComponents?.() ?? {},
        ),
      ),
    );

  // Both listed in the document itself (public, not rate-limited), so a client generated from it
  // can fetch it again.
  const documentSchema = {
    summary: "This OpenAPI 3.1 document",
    tags: ["meta"],
    security: [],
    response: {
      200: {
        type: "object",
        additionalProperties: true,
        description: "The OpenAPI 3.1 document of this server's API",
      },
    },
  };
  const docsSchema = {
    summary: "The API reference as one HTML page (no script, no outside resource)",
    tags: ["meta"],
    security: [],
    response: {
      200: { description: "The HTML reference", content: { "text/html": { schema: { type: "string" } } } },
    },
  };
  app.get(documentPath, { schema: documentSchema, config: { rateLimit: false } }, async (_request, reply) => {
    documentText ??= JSON.stringify(document(app));
    // A string is sent as it is (no serialiser), with the JSON type.
    return reply.type("application/json; charset=utf-8").send(documentText);
  });
  app.get(docsPath, { schema: docsSchema, config: { rateLimit: false } }, async (_request, reply) => {
    docsHtml ??= renderDocsPage(document(app), documentPath);
    return reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
      .send(docsHtml);
  });
});
