import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";

/** What /readyz reports: every check by name, and whether the process is draining (stopping). */
export interface ReadinessReport {
  ready: boolean;
  draining: boolean;
  /** Each dependency: "ok", or "failing" (the reason goes to the log, not to an unauthenticated caller). */
  checks: Record<string, "ok" | "failing">;
}

export interface OperationsOptions {
  /** This role can serve now; answered from a short cache so probes stay cheap. */
  readiness(): Promise<ReadinessReport>;
  /** The Prometheus exposition; absent: no /metrics. */
  metrics?: { expose(): Promise<{ contentType: string; body: string }> };
  /** Set: /metrics answers only `Authorization: Bearer <token>`. */
  metricsToken?: string;
}

/** Unauthenticated, never rate limited, neither logged nor counted as API traffic. */
const OPERATIONAL = { public: true, rateLimit: false, operational: true } as const;
const hide = { hide: true };

/**
 * The operational paths, outside /v1 like /docs: `/healthz` (the process is alive: no dependency is
 * asked), `/readyz` (this role can do its work: database, object store, render threads, not
 * draining) and `/metrics` (Prometheus). Registered on the API's app and on a worker's health port.
 */
export function registerOperations(app: FastifyInstance, options: OperationsOptions): void {
  app.get("/healthz", { config: OPERATIONAL, schema: hide, logLevel: "warn" }, async (_request, reply) =>
    reply.header("cache-control", "no-store").send({ status: "ok" }),
  );
  app.get("/readyz", { config: OPERATIONAL, schema: hide, logLevel: "warn" }, async (_request, reply) => {
    const report = await options.readiness();
    const status = report.ready ? "ready" : report.draining ? "draining" : "not_ready";
    return reply
      .code(report.ready ? 200 : 503)
      .header("cache-control", "no-store")
      .send({ status, checks: report.checks });
  });
  const { metrics, metricsToken } = options;
  if (!metrics) return;
  const expected = metricsToken ? Buffer.from(`Bearer ${metricsToken}`) : null;
  app.get("/metrics", { config: OPERATIONAL, schema: hide, logLevel: "warn" }, async (request, reply) => {
    if (expected) {
      const given = Buffer.from(request.headers.authorization ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return reply
          .code(401)
          .header("www-authenticate", 'Bearer realm="metrics"')
          .send({ error: { code: "unauthorized", message: "The metrics need the bearer token." } });
      }
    }
    const { contentType, body } = await metrics.expose();
    return reply.header("content-type", contentType).header("cache-control", "no-store").send(body);
  });
}
