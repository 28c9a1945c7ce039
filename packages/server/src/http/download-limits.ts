import type { FastifyRequest } from "fastify";
import { ApiError } from "./errors.ts";
import { TokenBuckets } from "./plugins/token-bucket-store.ts";

export interface DownloadLimit {
  /** Downloads one credential (URL-signing key, or the account a key-less link belongs to) may make at once. */
  keyBurst: number;
  /** Downloads per second a credential gets back. */
  keyPerSecond: number;
  /** Downloads one client address may make at once. */
  ipBurst: number;
  /** Downloads per second a client address gets back. */
  ipPerSecond: number;
  now?: () => number;
}

/**
 * `pictor serve`'s defaults (PICTOR_DOWNLOADS_*, main/config.ts). A page shows tens of images at once,
 * so a client address may fetch 100 at once and 50 a second after: far above what a person's browser
 * asks, and a scraper or a client that never reads its answers is held to it. A credential's links are
 * fetched by all its viewers together, so its budget is larger (500 at once, 100 a second); it bounds
 * what one tenant's links may take of a process that serves thousands of files a second.
 */
export const DEFAULT_DOWNLOAD_LIMIT: DownloadLimit = {
  keyBurst: 500,
  keyPerSecond: 100,
  ipBurst: 100,
  ipPerSecond: 50,
};

/** What a refused download is told, for routes that answer errors their own way (fallback images). */
export interface DownloadRefusal {
  ok: false;
  /** Seconds until the next download is allowed. */
  retryAfter: number;
  headers: Record<string, string>;
  message: string;
}

/**
 * Rate limits of the file routes (`/a/…`, `/o/…`, `/i/…`), which carry no API key and so are not
 * under the API's per-key limit: a token bucket per client address (`request.ip`: the TCP peer, or
 * behind a trusted proxy the address it forwards, PICTOR_TRUST_PROXY) taken before anything is looked
 * up, and one per credential taken once the request is known to be genuine (a URL-signing key whose
 * signature held; for asset and output links, which name no key, the account that owns the file).
 * Refused: 429 rate_limited with Retry-After and the RateLimit-Policy / RateLimit fields.
 */
export class DownloadLimits {
  readonly #buckets: TokenBuckets;
  readonly #limit: DownloadLimit;

  constructor(limit: DownloadLimit) {
    this.#limit = limit;
    this.#buckets = new TokenBuckets(limit.now ? { now: limit.now } : {});
  }

  /** Takes one download from the caller's address; throws 429 when it has none left. */
  takeIp(request: FastifyRequest): void {
    const refused = this.#take(`ip:${request.ip}`, this.#limit.ipBurst, this.#limit.ipPerSecond, "address");
    if (refused) throw refusalError(refused);
  }

  /** Takes one download from a credential (`usk:…`, `acct:…`); the refusal when it has none left. */
  takeKey(credential: string): { ok: true } | DownloadRefusal {
    return (
      this.#take(credential, this.#limit.keyBurst, this.#limit.keyPerSecond, "link's key") ?? { ok: true }
    );
  }

  /** As takeKey, throwing the 429. */
  takeKeyOrThrow(credential: string): void {
    const taken = this.takeKey(credential);
    if (!taken.ok) throw refusalError(taken);
  }

  #take(key: string, burst: number, perSecond: number, what: string): DownloadRefusal | null {
    const windowMs = Math.round((burst / perSecond) * 1000);
    const taken = this.#buckets.take(key, burst, windowMs);
    if (taken.taken) return null;
    const retryAfter = Math.max(1, Math.ceil(taken.nextTokenIn / 1000));
    return {
      ok: false,
      retryAfter,
      message: `Too many downloads for this ${what}; retry in ${retryAfter} s.`,
      headers: {
        "Retry-After": String(retryAfter),
        "RateLimit-Policy": `"downloads";q=${burst};w=${Math.ceil(windowMs / 1000)}`,
        RateLimit: `"downloads";r=0;t=${retryAfter}`,
      },
    };
  }
}

function refusalError(refused: DownloadRefusal): ApiError {
  return new ApiError(
    "rate_limited",
    refused.message,
    {},
    { ...refused.headers, "Cache-Control": "no-store" },
  );
}

/** No limits (tests that download a lot, `downloadLimit: false`). */
export const UNLIMITED_DOWNLOADS = {
  takeIp(): void {},
  takeKey: (): { ok: true } => ({ ok: true }),
  takeKeyOrThrow(): void {},
} satisfies Pick<DownloadLimits, "takeIp" | "takeKey" | "takeKeyOrThrow">;

export type DownloadLimiter = Pick<DownloadLimits, "takeIp" | "takeKey" | "takeKeyOrThrow">;
