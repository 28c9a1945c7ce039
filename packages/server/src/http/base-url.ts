import type { FastifyRequest } from "fastify";

/** Absolute links in responses: the configured public URL, else what the caller used to reach us. */
export function baseUrl(request: FastifyRequest, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, "");
  return `${request.protocol}://${request.host}`;
}
