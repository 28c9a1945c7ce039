import type { FastifyInstance } from "fastify";
import { errorHandlerPlugin } from "./errors.ts";
import { type IdempotencyOptions, idempotencyPlugin } from "./idempotency.ts";
import { jsonBodyPlugin } from "./json-body.ts";
import { type OpenApiOptions, openApiPlugin } from "./openapi.ts";
import { type RateLimitOptions, rateLimitPlugin } from "./rate-limit.ts";
import { requestIdPlugin } from "./request-id.ts";
import { shuttingDownPlugin } from "./shutting-down.ts";

export { errorHandlerPlugin, resolveError, sendError } from "./errors.ts";
export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyPlugin } from "./idempotency.ts";
export { jsonBodyPlugin, MAX_JSON_DEPTH } from "./json-body.ts";
export { ERROR_BODY_SCHEMA_ID, errorBodySchema, errorResponses, openApiPlugin } from "./openapi.ts";
export { defaultRateLimitKey, rateLimitPlugin } from "./rate-limit.ts";
export { genRequestId, REQUEST_ID_HEADER, requestIdPlugin } from "./request-id.ts";
export { BATCH_BODY_LIMIT, DEFAULT_BODY_LIMIT, httpServerOptions } from "./server-options.ts";
export { shuttingDownPlugin } from "./shutting-down.ts";
export type { IdempotencyOptions, OpenApiOptions, RateLimitOptions };

export interface HttpPluginsOptions {
  idempotency: IdempotencyOptions;
  rateLimit?: RateLimitOptions | false;
  openApi?: OpenApiOptions;
}

/**
 * Registers the cross-cutting plugins in the order they depend on. Call it on an app created with
 * `httpServerOptions()`, BEFORE registering routes (OpenAPI and rate limiting see routes added
 * later). The auth hook must run before preHandler (onRequest or preValidation) so that
 * `request.accountId` is set for idempotency.
 */
export async function registerHttpPlugins(app: FastifyInstance, options: HttpPluginsOptions): Promise<void> {
  await app.register(requestIdPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(shuttingDownPlugin);
  await app.register(jsonBodyPlugin);
  if (options.rateLimit !== false) await app.register(rateLimitPlugin, options.rateLimit ?? {});
  await app.register(openApiPlugin, options.openApi ?? {});
  await app.register(idempotencyPlugin, options.idempotency);
}
