import { BATCH_BODY_LIMIT } from "../../domain/batches.ts";
import { clientErrorHandler, frameworkErrorHandler } from "./errors.ts";
import { lazySerializerFactory, lazyValidatorFactory } from "./lazy-compilers.ts";
import { requestIdServerOptions } from "./request-id.ts";
import { buildPartAwareValidator } from "./validation.ts";

/** Request bodies are at most 1 MiB, a batch's 10 MiB (set per route with `bodyLimit`). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export { BATCH_BODY_LIMIT };

/**
 * Options that only exist at `Fastify({...})` time and that the plugins rely on: request ids
 * (sanitised X-Request-Id or a fresh one), the body limit, prototype-poisoning refusal for any
 * other JSON parser, the validator that does not coerce body types (validators and serializers built
 * on first use), and the one error shape for
 * what the router and Node's HTTP parser refuse before any route runs.
 * Usage: `Fastify({ logger, ...httpServerOptions() })`.
 */
export function httpServerOptions(options: { bodyLimit?: number } = {}) {
  return {
    ...requestIdServerOptions,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    onProtoPoisoning: "error" as const,
    // shuttingDownPlugin answers requests that arrive while closing, in the API's error shape.
    return503OnClosing: false,
    onConstructorPoisoning: "error" as const,
    // Validators and serializers are compiled on a route's first use, not all at start (lazy-compilers.ts).
    schemaController: {
      compilersFactory: {
        buildValidator: lazyValidatorFactory(buildPartAwareValidator()),
        buildSerializer: lazySerializerFactory(),
      },
    },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  };
}
