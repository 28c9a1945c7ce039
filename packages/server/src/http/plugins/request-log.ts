import { globalPlugin } from "./global-plugin.ts";

export interface RequestLogOptions {
  /** Told of every answered request but the operational ones: the HTTP metrics. */
  observe?: (method: string, route: string, status: number, seconds: number) => void;
}

/**
 * One log line per request, written when it is answered (Fastify's own request logging, two lines
 * per request, is turned off in buildApp): the request id, what was asked, the status and the time
 * taken, and the render it created, if any. Probes and scrapes (routes with `operational: true`) are
 * neither logged nor counted. A callback hook: it runs on every request.
 */
export const requestLogPlugin = globalPlugin<RequestLogOptions>(
  "pictor-request-log",
  async (app, options) => {
    const { observe } = options;
    app.decorateRequest("renderId", "");
    app.decorateRequest("toolName", "");
    app.addHook("onResponse", (request, reply, done) => {
      const config = request.routeOptions.config;
      if (config?.operational === true) return done();
      // An in-process call is part of its parent's line: the render it created, the error it met.
      const parent = request.parentRequest;
      if (parent) {
        if (request.renderId) parent.renderId = request.renderId;
        if (request.errorCode) parent.errorCode = request.errorCode;
        return done();
      }
      const ms = reply.elapsedTime;
      // One object, its optional fields added only when set (no spreads of throwaway objects).
      const line: Record<string, unknown> = { req: request, res: reply, responseTime: ms };
      if (request.toolName) line.tool = request.toolName;
      if (request.renderId) line.render_id = request.renderId;
      if (request.errorCode) line.code = request.errorCode;
      request.log.info(line, "request completed");
      observe?.(request.method, request.routeOptions.url ?? "unmatched", reply.statusCode, ms / 1000);
      done();
    });
  },
);
