import Fastify from "fastify";
import { type OperationsOptions, registerOperations } from "../http/operations.ts";

export interface HealthServer {
  url: string;
  close(): Promise<void>;
}

/**
 * /healthz, /readyz and /metrics on a port of their own (PICTOR_HEALTH_PORT): how a worker process,
 * which serves no API, is probed and scraped. It answers until the process has finished its work,
 * so a stopping worker reads 503 (draining) here while its last renders end.
 */
export async function startHealthServer(
  options: OperationsOptions,
  listenOn: { port: number; host: string },
): Promise<HealthServer> {
  // Closed last, when the process's work is done: open connections are cut then, not waited for.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  registerOperations(app, options);
  await app.listen({ port: listenOn.port, host: listenOn.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : listenOn.port;
  const host = listenOn.host.includes(":")
    ? `[${listenOn.host}]`
    : listenOn.host === "0.0.0.0"
      ? "127.0.0.1"
      : listenOn.host;
  return { url: `http://${host}:${port}`, close: () => app.close() };
}
