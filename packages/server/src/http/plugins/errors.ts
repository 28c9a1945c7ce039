import type { Duplex } from "node:stream";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, type ApiErrorCode, errorBody, STATUS_BY_CODE } from "../errors.ts";
import { globalPlugin } from "./global-plugin.ts";
import { newRequestId, REQUEST_ID_HEADER } from "./request-id.ts";
import { bodyScaleIsInvalid, mapValidationErrors } from "./validation.ts";

// Fastify's own error codes that are the caller's fault, mapped to ours.
const FASTIFY_CODES: Record<string, { code: ApiErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "payload_too_large", message: "The request body is too large." },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: "unsupported_media_type",
    message: "Send the request body as 'Content-Type: application/json'.",
  },
  FST_ERR_CTP_INVALID_TYPE: {
    code: "unsupported_media_type",
    message: "Send the request body as 'Content-Type: application/json'.",
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: "invalid_json", message: "The request body is empty." },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: "invalid_request",
    message: "Content-Length does not match the body.",
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "invalid_json", message: "The request body is not valid JSON." },
  // Raised by the router, before any route (frameworkErrorHandler).
  FST_ERR_BAD_URL: { code: "invalid_request", message: "The URL path is not validly percent-encoded." },
  FST_ERR_MAX_PARAM_LENGTH: {
    code: "invalid_request",
    message: "A path parameter is too long (at most 100 characters).",
  },
};

// Statuses Fastify or a plugin may attach to an error it throws, when no finer mapping applies.
const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  503: "unavailable",
};

export interface ResolvedError {
  code: ApiErrorCode;
  status: number;
  message: string;
  details: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Turns anything thrown inside a request into the one error shape. Unknown faults become 500. */
export function resolveError(error: unknown, request?: FastifyRequest): ResolvedError {
  if (error instanceof ApiError) {
    return {
      code: error.code,
      status: error.statusCode,
      message: error.message,
      details: error.details,
      headers: error.headers,
    };
  }
  const fastifyError = error as Partial<FastifyError> | null;
  if (fastifyError && Array.isArray(fastifyError.validation)) {
    const mapped = mapValidationErrors(fastifyError.validation, fastifyError.validationContext);
    if (
      mapped.code === "invalid_request" &&
      request &&
      (fastifyError.validationContext ?? "body") === "body" &&
      bodyScaleIsInvalid(request.routeOptions.schema?.body, request.body)
    ) {
      mapped.code = "invalid_scale";
      mapped.message = "'scale' must be a number from 1 to 4.";
      mapped.errors.unshift({ path: "scale", message: "must be a number from 1 to 4" });
    }
    return {
      code: mapped.code,
      status: STATUS_BY_CODE[mapped.code],
      message: mapped.message,
      details: { errors: mapped.errors },
      headers: {},
    };
  }
  const known = typeof fastifyError?.code === "string" ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) {
    return { ...known, status: STATUS_BY_CODE[known.code], details: {}, headers: {} };
  }
  const status = typeof fastifyError?.statusCode === "number" ? fastifyError.statusCode : 500;
  const byStatus = CODE_BY_STATUS[status];
  if (byStatus) {
    // Fastify's 4xx messages describe the request (never our internals), so they are safe to show.
    const message = typeof fastifyError?.message === "string" ? fastifyError.message : "Bad request.";
    return { code: byStatus, status, message, details: {}, headers: {} };
  }
  if (status >= 400 && status < 500) {
    return {
      code: "invalid_request",
      status: 400,
      message: "The request is invalid.",
      details: {},
      headers: {},
    };
  }
  return {
    code: "internal_error",
    status: 500,
    message: "Something went wrong on our side. It has been logged; please retry.",
    details: {},
    headers: {},
  };
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  resolved: ResolvedError,
): FastifyReply {
  for (const [name, value] of Object.entries(resolved.headers)) reply.header(name, value);
  return reply
    .code(resolved.status)
    .type("application/json; charset=utf-8")
    .send(errorBody(resolved.code, resolved.message, request.id, resolved.details));
}

/**
 * Fastify `frameworkErrors` server option: what the router refuses before any route or hook runs (a
 * malformed percent-encoding, a path parameter over `maxParamLength`), in the one error shape with
 * its X-Request-Id (no onRequest hook ran to set it). Without it Fastify answers in its own shape.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header(REQUEST_ID_HEADER, request.id);
  return sendError(request, reply, resolveError(error, request));
}

/**
 * Fastify `clientErrorHandler` server option: a request Node's HTTP parser refuses (request line and
 * headers over its 16 KiB limit, malformed HTTP, a request timeout) never reaches Fastify. The
 * answer is the one error shape with a request id, and `Connection: close`: the socket is
 * destroyed, and without the header a keep-alive client sends its next request into it.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const message =
    error.code === "HPE_HEADER_OVERFLOW"
      ? "The request line and headers are larger than this server accepts."
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "The request did not arrive in time."
        : "The request is not valid HTTP/1.1.";
  const requestId = newRequestId();
  const body = JSON.stringify(errorBody("invalid_request", message, requestId));
  if (socket.writable) {
    socket.write(
      "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * Error and not-found handlers producing `{ "error": { code, message, request_id, ...details } }`
 * for everything: ApiError, validation failures, body parser failures, unknown routes, and faults
 * (500, logged with the request id; the body never carries the fault's message or stack).
 */
/** How long a client should wait before retrying work refused while a backing store was unreachable. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

const storeUnavailable: ResolvedError = {
  code: "unavailable",
  status: 503,
  message:
    "A backing store is briefly unavailable. Retry in a few seconds; a retry with the same Idempotency-Key never charges twice.",
  details: {},
  headers: { "retry-after": String(UNAVAILABLE_RETRY_AFTER_S) },
};

export interface ErrorHandlerOptions {
  /**
   * Recognises a fault meaning a backing store (database, object store) cannot be reached right
   * now: answered 503 `unavailable` with Retry-After instead of 500. From the process's composition
   * root, which knows its adapters (adapters/{sqlite,postgres,s3}/faults.ts).
   */
  isUnavailable?: (error: unknown) => boolean;
}

export const errorHandlerPlugin = globalPlugin<ErrorHandlerOptions>("pictor-errors", async (app, options) => {
  app.decorateRequest("errorCode", "");
  app.setErrorHandler((error, request, reply) => {
    if (!(error instanceof ApiError) && options.isUnavailable?.(error)) {
      request.log.warn({ err: error }, "backing store unavailable");
      return sendError(request, reply, storeUnavailable);
    }
    const resolved = resolveError(error, request);
    // A refusal is said in the request's own log line (request-log.ts); a fault gets its stack too.
    request.errorCode = resolved.code;
    if (resolved.status >= 500) request.log.error({ err: error }, "request failed");
    return sendError(request, reply, resolved);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, {
      code: "not_found",
      status: 404,
      message: `No route ${request.method} ${request.url.split("?")[0]}.`,
      details: {},
      headers: {},
    }),
  );
});
