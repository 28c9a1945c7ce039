import { noTracing, type Tracing } from "../../ports/tracing.ts";
import { globalPlugin } from "./global-plugin.ts";

export interface RequestTracingOptions {
  tracing?: Tracing;
}

/**
 * A server span per request when traces are on, named by its route pattern (never the URL: an image
 * URL's query holds its signature), continuing the caller's `traceparent` when it sends one. Probes
 * and scrapes are left out. With traces off no hook is added: a request pays nothing for them.
 */
export const requestTracingPlugin = globalPlugin<RequestTracingOptions>(
  "pictor-request-tracing",
  async (app, options) => {
    const tracing = options.tracing ?? noTracing;
    app.decorateRequest("traceSpan", null);
    if (!tracing.on) return;
    app.addHook("onRequest", (request, _reply, done) => {
      // An in-process call (an MCP tool's API call) is part of its parent request's span.
      if (request.routeOptions.config?.operational === true || request.parentRequest) return done();
      const route = request.routeOptions.url ?? "unmatched";
      const incoming = request.headers.traceparent;
      request.traceSpan = tracing.start(`${request.method} ${route}`, {
        kind: "server",
        parent: typeof incoming === "string" ? incoming : undefined,
        attributes: {
          "http.request.method": request.method,
          "http.route": route,
          "pictor.request.id": request.id,
        },
      });
      done();
    });
    app.addHook("onResponse", (request, reply, done) => {
      const span = request.traceSpan;
      if (span) {
        span.set({ "http.response.status_code": reply.statusCode });
        span.end(reply.statusCode >= 500 ? { error: String(reply.statusCode) } : {});
      }
      done();
    });
  },
);
