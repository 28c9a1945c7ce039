import { isIP } from "node:net";

// What an outbound URL may look like, judged on the WHATWG-parsed URL so that
// what we check is what undici will connect to: `127.1`, `2130706433`,
// `0x7f000001` and `0177.0.0.1` all normalise to 127.0.0.1, backslashes
// become slashes, and `http://a.com@127.0.0.1/` has host 127.0.0.1.

export interface OutboundTarget {
  url: URL;
  /** Host without IPv6 brackets and without a trailing dot. */
  hostname: string;
  port: number;
  /** 4 or 6 when the host is an IP literal, else 0. */
  ipFamily: 0 | 4 | 6;
}

export type TargetVerdict = { ok: true; target: OutboundTarget } | { ok: false; reason: string };

// Ports: 80, 443 and the unprivileged range 1024-65535, minus the ports the
// Fetch standard blocks (https://fetch.spec.whatwg.org/#bad-port: protocols an
// HTTP request can be smuggled into, e.g. SIP, IRC, X11) and well-known data
// stores that speak line protocols and often run without auth on private
// networks (Redis, Memcached). Privileged ports other than 80/443 (SMTP 25,
// SSH 22, ...) are never HTTP endpoints a render input or webhook needs.
const DENIED_UNPRIVILEGED_PORTS = new Set([
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6379, 6566, 6665, 6666, 6667, 6668, 6669, 6679,
  6697, 10080, 11211,
]);

export function isAllowedPort(port: number): boolean {
  if (port === 80 || port === 443) return true;
  return port >= 1024 && port <= 65535 && !DENIED_UNPRIVILEGED_PORTS.has(port);
}

// Names that never denote a public host whatever DNS says: RFC 6761 localhost,
// mDNS .local, cloud-internal .internal (metadata.google.internal), and
// single-label names that only resolve through a local search domain.
export function isBlockedHostname(hostname: string): boolean {
  if (isIP(hostname) !== 0) return false;
  const name = hostname.toLowerCase();
  if (!name.includes(".")) return true;
  return [".localhost", ".local", ".internal", ".localdomain", ".home.arpa"].some((suffix) =>
    name.endsWith(suffix),
  );
}

export function parseOutboundUrl(raw: string): TargetVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid absolute URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: "only http and https URLs are allowed" };
  }
  // Credentials in outbound URLs are only ever an obfuscation trick here
  // (`http://trusted.com@evil/`); nothing we fetch needs them.
  if (url.username !== "" || url.password !== "") {
    return { ok: false, reason: "URLs with credentials are not allowed" };
  }
  const bare = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const hostname = bare.endsWith(".") ? bare.slice(0, -1) : bare;
  if (hostname === "") return { ok: false, reason: "URL has no host" };
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  const family = isIP(hostname);
  return {
    ok: true,
    target: { url, hostname, port, ipFamily: family === 4 ? 4 : family === 6 ? 6 : 0 },
  };
}
