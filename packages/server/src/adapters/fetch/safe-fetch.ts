import type { LookupFunction } from "node:net";
import {
  OutboundError,
  type SafeFetch,
  type SafeFetchOptions,
  type SafeFetchResponse,
} from "../../ports/safe-fetch.ts";
import { Allowlist } from "./allowlist.ts";
import { discardBody, readCappedBody } from "./read-capped-body.ts";
import { type Lookup, type ResolvedAddress, resolveTarget, systemLookup } from "./resolve-target.ts";
import { type OutboundTarget, parseOutboundUrl } from "./url-policy.ts";

export interface SafeFetchConfig {
  /** `host:port` entries from PICTOR_OUTBOUND_ALLOWLIST. */
  allowlist: readonly string[];
  /** DNS resolution; default node:dns lookup of all addresses. Tests inject answers here. */
  lookup?: Lookup;
  /** Bound on check()'s DNS resolution; default 5 s. */
  checkTimeoutMs?: number;
}

// Input images: 25 MiB, 10 s to fetch, 3 redirects each re-checked.
const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_REDIRECTS = 3;
// check() runs inside an API request (webhook_url validation): a hanging DNS
// server must not hold that request for longer than this.
const DEFAULT_CHECK_TIMEOUT_MS = 5_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Never forwarded to another origin after a redirect (Fetch standard does the same).
const CROSS_ORIGIN_STRIPPED_HEADERS = ["authorization", "cookie", "proxy-authorization"];

// One message for every connection-level failure (refused, reset, TLS error,
// a non-HTTP service answering) so that the caller cannot tell a closed port
// from an open one: no port-scan oracle. A host name that does not resolve is
// not one of them: it is `blocked` like a name resolving to a private address.
const FETCH_FAILED_MESSAGE = "outbound request failed";

export function createSafeFetch(config: SafeFetchConfig): SafeFetch {
  const allowlist = new Allowlist(config.allowlist);
  const lookup = config.lookup ?? systemLookup;

  async function check(url: string): Promise<{ ok: true } | { ok: false; reason: string }> {
    const parsed = parseOutboundUrl(url);
    if (!parsed.ok) return parsed;
    const deadline = AbortSignal.timeout(config.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS);
    try {
      const verdict = await raceDeadline(resolveTarget(parsed.target, allowlist, lookup), deadline);
      return verdict.ok ? { ok: true } : { ok: false, reason: verdict.reason };
    } catch {
      return { ok: false, reason: "host did not resolve in time" };
    }
  }

  async function fetch(url: string, options: SafeFetchOptions = {}): Promise<SafeFetchResponse> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new OutboundError("timeout", `outbound request timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      return await raceDeadline(fetchFollowingRedirects(url, options, deadline.signal), deadline.signal);
    } catch (error) {
      if (deadline.signal.aborted) throw deadline.signal.reason as OutboundError;
      if (error instanceof OutboundError) throw error;
      throw new OutboundError("fetch_failed", FETCH_FAILED_MESSAGE, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  async function fetchFollowingRedirects(
    url: string,
    options: SafeFetchOptions,
    signal: AbortSignal,
  ): Promise<SafeFetchResponse> {
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    let method = options.method ?? "GET";
    let body = options.body;
    let headers = { ...(options.headers ?? {}) };
    let current = url;
    for (let hop = 0; ; hop++) {
      const parsed = parseOutboundUrl(current);
      if (!parsed.ok) throw blocked(parsed.reason);
      const target = parsed.target;
      const verdict = await resolveTarget(target, allowlist, lookup);
      // A name that does not resolve and one that resolves to a private address are the same
      // `blocked` error with the same reason (resolve-target.ts, NO_PUBLIC_ADDRESS): a
      // `fetch_failed` for the one and `blocked` for the other would tell a caller which internal
      // host names exist. `verdict.kind` still tells them apart for code in this process.
      if (!verdict.ok) throw blocked(verdict.reason);
      signal.throwIfAborted();
      const response = await sendPinned(
        target,
        verdict.addresses,
        { method, headers, body },
        options,
        signal,
      );
      const location = response.headers.location;
      if (options.followRedirects === false || !REDIRECT_STATUSES.has(response.status) || !location) {
        return response;
      }
      if (hop >= maxRedirects) {
        throw new OutboundError("fetch_failed", `more than ${maxRedirects} redirects`);
      }
      let next: URL;
      try {
        next = new URL(location, target.url);
      } catch {
        throw new OutboundError("fetch_failed", FETCH_FAILED_MESSAGE);
      }
      // Fetch standard: 303, and 301/302 after POST, continue as a body-less GET.
      if (
        response.status === 303 ||
        (method === "POST" && response.status !== 307 && response.status !== 308)
      ) {
        method = "GET";
        body = undefined;
        headers = withoutHeaders(headers, ["content-type", "content-length"]);
      }
      if (next.origin !== target.url.origin) headers = withoutHeaders(headers, CROSS_ORIGIN_STRIPPED_HEADERS);
      current = next.href;
    }
  }

  return { fetch, check };
}

interface RequestParts {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body: Uint8Array | string | undefined;
}

// undici (about 110 modules, 3 MB of the API thread's heap) is loaded on the first outbound request
// (an image URL or a webhook), not at start: many servers never make one.
let undici: Promise<typeof import("undici")> | undefined;
const loadUndici = () => (undici ??= import("undici"));

// One Agent per hop whose socket lookup answers with the addresses that were
// checked, whatever DNS would say now. The URL keeps its hostname, so the Host
// header, TLS SNI and certificate verification still use the real name.
async function sendPinned(
  target: OutboundTarget,
  pinned: readonly [ResolvedAddress, ...ResolvedAddress[]],
  request: RequestParts,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<SafeFetchResponse> {
  // With `all` (Node's happy-eyeballs, autoSelectFamily) every checked address
  // is offered so an unreachable IPv6 answer can fall back to IPv4.
  const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all)
      callback(
        null,
        pinned.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, pinned[0].address, pinned[0].family);
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { Agent } = await loadUndici();
  const agent = new Agent({
    connect: { lookup: pinnedLookup, timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    allowH2: false,
    pipelining: 0,
  });
  try {
    const response = await agent.request({
      origin: target.url.origin,
      path: `${target.url.pathname}${target.url.search}`,
      method: request.method,
      headers: withoutHeaders(request.headers, ["host", "connection", "transfer-encoding"]),
      body: request.body ?? null,
      signal,
    });
    const headers = flattenHeaders(response.headers);
    if (options.followRedirects !== false && REDIRECT_STATUSES.has(response.statusCode) && headers.location) {
      // The redirect's own body is never used; drop it instead of reading it.
      discardBody(response.body);
      return { status: response.statusCode, headers, body: new Uint8Array(), url: target.url.href };
    }
    const body = await readCappedBody(
      response.body,
      headers["content-length"],
      options.maxBytes ?? DEFAULT_MAX_BYTES,
    );
    return { status: response.statusCode, headers, body, url: target.url.href };
  } finally {
    agent.destroy().catch(() => {});
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function withoutHeaders(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!names.includes(name.toLowerCase())) out[name] = value;
  }
  return out;
}

function blocked(reason: string): OutboundError {
  return new OutboundError("blocked", `outbound URL blocked: ${reason}`);
}

// The deadline also bounds steps undici cannot cancel, such as a slow DNS lookup.
function raceDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
