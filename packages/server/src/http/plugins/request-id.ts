import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { globalPlugin } from "./global-plugin.ts";

export const REQUEST_ID_HEADER = "x-request-id";

// An incoming id is echoed into logs and response headers, so only a short token of safe
// characters is accepted (no header injection, no log forging); anything else gets a fresh id.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function isSaneRequestId(value: unknown): value is string {
  return typeof value === "string" && SANE_REQUEST_ID.test(value);
}

export const newRequestId = () => `req_${randomUUID().replaceAll("-", "")}`;

/** Fastify `genReqId` server option: keep a sane caller-supplied X-Request-Id, else `req_<uuid>`. */
export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  if (isSaneRequestId(incoming)) return incoming;
  return newRequestId();
}

/**
 * Server options that make `request.id` the request id: spread into `Fastify({...})`.
 * `requestIdHeader: false` because Fastify would otherwise trust the header verbatim.
 */
export const requestIdServerOptions = {
  requestIdHeader: false as const,
  genReqId: genRequestId,
};

/**
 * Puts `X-Request-Id` on every response, errors and 404s included (they all pass onSend). Hooks on
 * every request are written with callbacks, not async: each async hook costs a promise and a turn of
 * the microtask queue per request.
 */
export const requestIdPlugin = globalPlugin("pictor-request-id", async (app) => {
  app.addHook("onSend", (request, reply, payload, done) => {
    if (!reply.hasHeader(REQUEST_ID_HEADER)) reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
});
