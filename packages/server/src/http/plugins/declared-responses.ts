import { type ApiErrorCode, STATUS_BY_CODE } from "../errors.ts";

/**
 * Every status an operation can answer, in the served OpenAPI document: each error status with
 * the error codes the operation can answer with it (the `code` enum of that response, and its
 * description), and the response headers the server sends (X-Request-Id on every answer, the
 * RateLimit fields, Retry-After on 429 and 503, WWW-Authenticate on 401, Location, ETag,
 * Idempotent-Replayed, …). The routes declare their success bodies; this file declares the rest,
 * so a generated client or agent tool sees exactly what can come back. The generated-request test
 * (openapi-fuzz.test.ts) fails on any status, code or header the server sends that is not here.
 */

/** Codes an operation answers beyond those every operation of its shape can (`baseCodes`). */
const EXTRA_CODES: Record<string, ApiErrorCode[]> = {
  "POST /v1/templates": ["idempotency_key_in_use", "idempotency_key_reused"],
  "PUT /v1/templates/{id}": [],
  "POST /v1/templates/{id}/publish": [],
  "POST /v1/renders/preflight": ["invalid_scale"],
  "POST /v1/renders/batch/preflight": ["invalid_scale"],
  "POST /v1/renders": [
    "not_found",
    "invalid_scale",
    "insufficient_credits",
    "idempotency_key_in_use",
    "template_not_published",
    "unknown_slot",
    "image_out_of_folder",
    "value_not_encodable",
    "render_too_large",
    "format_unavailable",
    "invalid_webhook_url",
    "idempotency_key_reused",
    "image_fetch_failed",
    "image_invalid",
    "font_invalid",
  ],
  "POST /v1/renders/batch": [
    "insufficient_credits",
    "idempotency_key_in_use",
    "idempotency_key_reused",
    "invalid_webhook_url",
  ],
  "POST /v1/accounts": ["forbidden"],
  "GET /a/{file}": ["range_not_satisfiable"],
  "GET /o/{file}": ["forbidden", "range_not_satisfiable"],
  "POST /v1/assets": ["storage_quota_exceeded", "image_invalid", "font_invalid"],
  "POST /v1/assets/import": ["storage_quota_exceeded", "image_fetch_failed", "image_invalid", "font_invalid"],
  "POST /v1/editor/prepare-image": ["image_fetch_failed", "image_invalid"],
  "POST /v1/url-signing-keys/{id}/sign": ["invalid_scale"],
  "GET /i/{key}/{file}": [
    "forbidden",
    "invalid_scale",
    "insufficient_credits",
    "range_not_satisfiable",
    "template_not_published",
    "unknown_slot",
    "image_out_of_folder",
    "value_not_encodable",
    "render_too_large",
    "format_unavailable",
    "image_fetch_failed",
    "image_invalid",
    "font_invalid",
  ],
};

/** What every operation of this shape can answer: a bad request, limits, the server's own state. */
function baseCodes(method: string, path: string, secured: boolean): ApiErrorCode[] {
  const codes: ApiErrorCode[] = ["invalid_request", "rate_limited", "internal_error", "unavailable"];
  if (secured) codes.push("unauthorized");
  if (path.includes("{")) codes.push("not_found");
  // A body is read (and refused when malformed, too big or of another type) whatever the route uses.
  if (method !== "get") codes.push("invalid_json", "payload_too_large", "unsupported_media_type");
  return codes;
}

/** Headers of success answers, by operation and status (beyond those of every answer). */
const SUCCESS_HEADERS: Record<string, Record<string, string[]>> = {
  "POST /v1/templates": { "201": ["Location"] },
  "POST /v1/templates/{id}/duplicate": { "201": ["Location"] },
  "POST /v1/renders": {
    "200": ["Location", "Preference-Applied", "Idempotent-Replayed", "Original-Request-Id"],
    "202": ["Location", "Idempotent-Replayed", "Original-Request-Id"],
  },
  "POST /v1/renders/batch": {
    "202": ["Location", "Idempotent-Replayed", "Original-Request-Id"],
  },
  "POST /v1/editor/prepare-image": {
    "200": ["Cache-Control", "X-Image-Width", "X-Image-Height", "X-Image-Upscaled", "X-Image-Downscaled"],
  },
};
const FILE_HEADERS: string[] = ["ETag", "Cache-Control", "Accept-Ranges"];
for (const route of ["GET /a/{file}", "GET /o/{file}", "GET /i/{key}/{file}"]) {
  SUCCESS_HEADERS[route] = {
    "200": FILE_HEADERS,
    "206": [...FILE_HEADERS, "Content-Range"],
    "304": ["ETag", "Cache-Control", "Accept-Ranges"],
  };
}
for (const route of [
  "POST /v1/keys",
  "POST /v1/accounts",
  "GET /v1/webhook-secret",
  "POST /v1/webhook-secret/rotate",
  "POST /v1/url-signing-keys",
  "POST /v1/url-signing-keys/{id}/rotate",
]) {
  const status = route === "POST /v1/keys" || route.endsWith("signing-keys") || route.endsWith("accounts");
  SUCCESS_HEADERS[route] = { [status ? "201" : "200"]: ["Cache-Control"] };
}

/** The headers' own declarations, `components.headers`, by the component name. */
const HEADERS: Record<
  string,
  { component: string; description: string; schema: Record<string, unknown>; required?: true }
> = {
  "X-Request-Id": {
    component: "XRequestId",
    description:
      "This request's id; equals `error.request_id` of an error answer. Quote it in a support request.",
    required: true,
    schema: { type: "string" },
  },
  RateLimit: {
    component: "RateLimit",
    description: 'The caller\'s budget (IETF draft): `"burst";r=<requests left>;t=<seconds until full>`.',
    schema: { type: "string" },
  },
  "RateLimit-Policy": {
    component: "RateLimitPolicy",
    description: 'The policy (IETF draft): `"burst";q=<burst>;w=<seconds to refill it>`.',
    schema: { type: "string" },
  },
  "Retry-After": {
    component: "RetryAfter",
    description: "Seconds to wait before trying again; nothing was charged.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "WWW-Authenticate": {
    component: "WWWAuthenticate",
    description: "`Bearer`: send a secret API key as `Authorization: Bearer sk_live_…`.",
    required: true,
    schema: { type: "string" },
  },
  Location: {
    component: "Location",
    description:
      "The path of what was created or accepted (`/v1/renders/{id}`, `/v1/batches/{id}`, `/v1/templates/{id}`).",
    required: true,
    schema: { type: "string" },
  },
  "Idempotent-Replayed": {
    component: "IdempotentReplayed",
    description: "`true` on an answer replayed for a retry with the same `Idempotency-Key` and body.",
    schema: { type: "string", enum: ["true"] },
  },
  "Original-Request-Id": {
    component: "OriginalRequestId",
    description: "On a replayed answer: the request id of the request that was first answered.",
    schema: { type: "string" },
  },
  "Preference-Applied": {
    component: "PreferenceApplied",
    description: "`wait=N` when `Prefer: wait=N` was honoured and the render completed in time.",
    schema: { type: "string" },
  },
  ETag: {
    component: "ETag",
    description: "A strong validator of the file; send it back in `If-None-Match` to get 304.",
    required: true,
    schema: { type: "string" },
  },
  "Cache-Control": {
    component: "CacheControl",
    description: "How long the answer may be cached (`no-store` for answers carrying a secret).",
    schema: { type: "string" },
  },
  "Accept-Ranges": {
    component: "AcceptRanges",
    description: "`bytes`: a `Range` request gets 206 with that part.",
    schema: { type: "string" },
  },
  "Content-Range": {
    component: "ContentRange",
    description: "The part sent (`bytes 0-99/1234`); on 416 `bytes */<size>`.",
    required: true,
    schema: { type: "string" },
  },
  "X-Image-Width": {
    component: "XImageWidth",
    description: "The prepared image's width in pixels.",
    schema: { type: "integer" },
  },
  "X-Image-Height": {
    component: "XImageHeight",
    description: "The prepared image's height in pixels.",
    schema: { type: "integer" },
  },
  "X-Image-Upscaled": {
    component: "XImageUpscaled",
    description: "How many times the source is enlarged to fill the box (only when it is).",
    schema: { type: "string" },
  },
  "X-Image-Downscaled": {
    component: "XImageDownscaled",
    description: "Present when the source was reduced to fit the size limit.",
    schema: { type: "string" },
  },
};

/** Operations whose error answers also say how long they may be cached (file URLs a CDN fronts). */
const CACHED_ERRORS = new Set(["GET /a/{file}", "GET /o/{file}", "GET /i/{key}/{file}"]);

/** The headers an answer with this status carries beyond the operation's own. */
function commonHeaders(status: string): string[] {
  const out: string[] = ["X-Request-Id", "RateLimit", "RateLimit-Policy"];
  if (status === "429" || status === "503") out.push("Retry-After");
  if (status === "401") out.push("WWW-Authenticate");
  if (status === "416") out.push("Content-Range");
  return out;
}

type Json = Record<string, unknown>;
const METHODS = ["get", "put", "post", "delete", "patch"];

function headersOf(names: string[], used: Set<string>): Json {
  const out: Json = {};
  for (const name of names) {
    const header = HEADERS[name];
    if (!header) throw new Error(`OpenAPI: header ${name} is not declared`);
    used.add(name);
    out[name] = { $ref: `#/components/headers/${header.component}` };
  }
  return out;
}

/** Replaces the `4XX`/`5XX` ranges by each error status with its codes, and declares headers. */
export function withDeclaredResponses<T extends { paths?: unknown; components?: Json; security?: unknown }>(
  document: T,
): T {
  const used = new Set<string>();
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const security = (operation.security ?? document.security ?? []) as unknown[];
      const codes = new Set([...baseCodes(method, path, security.length > 0), ...(EXTRA_CODES[key] ?? [])]);
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      delete responses["4XX"];
      delete responses["5XX"];
      const byStatus = new Map<number, ApiErrorCode[]>();
      for (const code of codes) {
        const status = STATUS_BY_CODE[code];
        byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
      }
      for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
        responses[String(status)] = {
          description: list.map((c) => `\`${c}\``).join(", "),
          content: {
            "application/json": {
              schema: {
                allOf: [
                  { $ref: "#/components/schemas/ErrorBody" },
                  {
                    type: "object",
                    properties: { error: { type: "object", properties: { code: { enum: list } } } },
                  },
                ],
              },
            },
          },
        };
      }
      for (const [status, response] of Object.entries(responses)) {
        const own = SUCCESS_HEADERS[key]?.[status] ?? (CACHED_ERRORS.has(key) ? ["Cache-Control"] : []);
        response.headers = headersOf([...commonHeaders(status), ...own], used);
      }
      operation.responses = responses;
    }
  }
  const components = (document.components ?? {}) as Json;
  const headers: Json = {};
  for (const name of [...used].sort()) {
    const header = HEADERS[name] as (typeof HEADERS)[string];
    headers[header.component] = {
      description: header.description,
      ...(header.required ? { required: true } : {}),
      schema: header.schema,
    };
  }
  components.headers = headers;
  document.components = components;
  return document;
}
