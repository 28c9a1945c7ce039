import { isIP } from "node:net";
import type { FastifyRequest } from "fastify";

/**
 * Absolute links in responses: the configured public URL, else what the caller used to reach us. The
 * Host header is the client's to choose: only a valid `host[:port]` (a DNS name or IPv4 address, or a
 * bracketed IPv6 address, and a port 1-65535) is copied into links. Anything else (`evil.example/">`,
 * `user@host`, a missing Host) gives the address the connection arrived at instead.
 */
export function baseUrl(request: FastifyRequest, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, "");
  return `${request.protocol}://${validHost(request.host) ?? arrivedAt(request)}`;
}

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);
const HOST_AND_PORT = /^(\[[^\]]*\]|[^:[\]]+)(?::([0-9]{1,5}))?$/;

/** `value` when it is a valid Host header value (`host[:port]`, RFC 9110 section 7.2), else null. */
export function validHost(value: string | undefined): string | null {
  if (value === undefined || value.length > 261) return null;
  const match = HOST_AND_PORT.exec(value);
  if (!match) return null;
  const [, host = "", port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return null;
  if (host.startsWith("[")) return isIP(host.slice(1, -1)) === 6 ? value : null;
  return host.length <= 253 && HOST_NAME.test(host) ? value : null;
}

/** `address:port` of this server as the connection reached it (IPv6 bracketed, no zone). */
function arrivedAt(request: FastifyRequest): string {
  const socket = request.raw.socket;
  const local = (socket.localAddress ?? "127.0.0.1").split("%")[0] ?? "";
  const address = local.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  const host = isIP(address) === 6 ? `[${address}]` : address;
  return socket.localPort ? `${host}:${socket.localPort}` : host;
}
