import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { globalPlugin } from "./global-plugin.ts";

/**
 * Calls an API request makes to this same app in-process (an MCP tool call's API requests, through
 * `app.inject`): they run through the routes and hooks like any request (auth, scoping, validation,
 * billing) but are part of the request that made them, which already spent its rate-limit token and
 * is the one logged and counted. Such a call carries a one-time token in INNER_CALL_HEADER; the hook
 * below links it to its parent request (`request.parentRequest`) and removes the header. A token is
 * random and lives only while its parent runs, so a header sent from outside links to nothing.
 */
export const INNER_CALL_HEADER = "x-pictor-inner-call";

const parents = new Map<string, FastifyRequest>();

/** Opens in-process calls for `parent`: the headers each call carries, and `close` when it is done. */
export function openInnerCalls(parent: FastifyRequest): { headers: Record<string, string>; close(): void } {
  const token = randomBytes(24).toString("base64url");
  parents.set(token, parent);
  return { headers: { [INNER_CALL_HEADER]: token }, close: () => parents.delete(token) };
}

export const innerCallsPlugin = globalPlugin("pictor-inner-calls", async (app) => {
  app.decorateRequest("parentRequest", null);
  app.addHook("onRequest", (request, _reply, done) => {
    const token = request.headers[INNER_CALL_HEADER];
    if (token !== undefined) {
      delete request.headers[INNER_CALL_HEADER];
      const parent = typeof token === "string" ? parents.get(token) : undefined;
      if (parent) request.parentRequest = parent;
    }
    done();
  });
});
