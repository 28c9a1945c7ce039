import { ApiError } from "../errors.ts";
import { globalPlugin } from "./global-plugin.ts";

/** How long a client should wait before retrying a request refused during shutdown. */
const SHUTTING_DOWN_RETRY_AFTER_S = 5;

/**
 * While the server drains (SIGTERM), requests that still arrive, pipelined or on a keep-alive
 * connection that was busy, get the API's own 503 `unavailable` with Retry-After and X-Request-Id,
 * and the connection is closed after it. Fastify's built-in answer for this (`return503OnClosing`,
 * turned off in httpServerOptions) has none of them and another body shape. Requests that began
 * before the shutdown finish normally.
 */
export const shuttingDownPlugin = globalPlugin("pictor-shutting-down", async (app) => {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // An answer finished while closing (a caller that waited for its render) leaves its keep-alive
  // connection idle, and Node closed only the connections idle when the close began: without this it
  // would hold the stop until its keep-alive timeout (72 s). A request already pipelined behind it
  // keeps the connection busy and is answered 503 below.
  app.addHook("onResponse", (_request, _reply, done) => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
    done();
  });
  // A callback hook: it runs on every request and almost always has nothing to do.
  app.addHook("onRequest", (_request, reply, done) => {
    if (!closing) return done();
    reply.header("connection", "close");
    done(
      new ApiError(
        "unavailable",
        "The server is shutting down; retry shortly.",
        {},
        { "Retry-After": String(SHUTTING_DOWN_RETRY_AFTER_S) },
      ),
    );
  });
});
