import ipaddr from "ipaddr.js";

// PICTOR_OUTBOUND_ALLOWLIST: exact `host:port` entries that
// may be reached although not public, for tests and local development. An
// entry matches either the URL's own host:port (`localhost:4555`) or a
// resolved address:port (`127.0.0.1:4555`, whichever name resolved to it).
// Matching is exact after WHATWG normalisation, so `127.1:4555` equals
// `127.0.0.1:4555` and `[::1]:4555` is the IPv6 loopback; no wildcards.

export class Allowlist {
  readonly #entries: Set<string>;

  constructor(entries: readonly string[]) {
    this.#entries = new Set(entries.map(normaliseEntry));
  }

  allows(host: string, port: number): boolean {
    return this.#entries.has(key(host, port));
  }

  /** Whether some entry names this port, i.e. a resolved address might still be allow-listed. */
  mentionsPort(port: number): boolean {
    for (const entry of this.#entries) if (entry.endsWith(`|${port}`)) return true;
    return false;
  }
}

function normaliseEntry(entry: string): string {
  const trimmed = entry.trim();
  // A DNS name or IP literal, no wildcards: the guard must stay exact.
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(trimmed);
  const port = Number(match?.[2]);
  let hostname = "";
  try {
    hostname = new URL(`http://${match?.[1] ?? ""}/`).hostname;
  } catch {
    hostname = "";
  }
  if (match === null || hostname === "" || port < 1 || port > 65535) {
    throw new Error(`PICTOR_OUTBOUND_ALLOWLIST entry "${trimmed}" is not host:port`);
  }
  return key(hostname, port);
}

function key(host: string, port: number): string {
  let bare = host.startsWith("[") ? host.slice(1, -1) : host;
  if (bare.endsWith(".")) bare = bare.slice(0, -1);
  if (ipaddr.isValid(bare)) bare = ipaddr.parse(bare).toString();
  return `${bare.toLowerCase()}|${port}`;
}
