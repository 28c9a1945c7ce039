// The single outbound-HTTP port of the service. Every request that leaves the
// process (image_url fetches, webhook deliveries) goes through a SafeFetch so
// that the SSRF guard cannot be bypassed by a second code path.
// Implementation: src/adapters/fetch/safe-fetch.ts (createSafeFetch).

export type OutboundErrorCode = "blocked" | "fetch_failed" | "timeout" | "too_large";

export class OutboundError extends Error {
  readonly code: OutboundErrorCode;

  constructor(code: OutboundErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OutboundError";
    this.code = code;
  }

  /**
   * For the caller, as `Fetching <what> failed (<code>): …`. A blocked address gets the way out: an
   * image on the caller's own machine or network is uploaded, not fetched.
   */
  describe(what: string): string {
    const hint =
      this.code === "blocked"
        ? " Upload the file (POST /v1/assets) and use its asset id; a server operator can allow an address for local development with PICTOR_OUTBOUND_ALLOWLIST."
        : "";
    return `Fetching ${what} failed (${this.code}): ${this.message}${hint}`;
  }
}

export interface SafeFetchOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  /** Default 25 MiB; reading is aborted past it -> too_large. */
  maxBytes?: number;
  /** Deadline for the whole request including redirects and body; default 10 s -> timeout. */
  timeoutMs?: number;
  /** Default true (images); webhooks pass false and get the 3xx response as is. Each hop is re-checked. */
  followRedirects?: boolean;
  /** Default 3. */
  maxRedirects?: number;
}

export interface SafeFetchResponse {
  status: number;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Uint8Array;
  /** Final URL after redirects. */
  url: string;
}

export interface SafeFetch {
  /** Every outbound request of the service goes through this. Connects only to the checked address. */
  fetch(url: string, options?: SafeFetchOptions): Promise<SafeFetchResponse>;
  /** Request-time check: parse, resolve, every address public (or allow-listed). No request is sent. */
  check(url: string): Promise<{ ok: true } | { ok: false; reason: string }>;
}
