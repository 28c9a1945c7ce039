import { createHash } from "node:crypto";
import rateLimit from "@fastify/rate-limit";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../errors.ts";
import { globalPlugin } from "./global-plugin.ts";
import { tokenBucketStore } from "./token-bucket-store.ts";

export interface RateLimitOptions {
  /** Requests a key may send at once. Default 100. */
  burst?: number;
  /** Sustained requests per second per key. Default 10. */
  refillPerSecond?: number;
  /**
   * Hook that applies the limit. Default `onRequest`: before the body is read, so a flood costs
   * little. The key then comes from the Authorization header (hashed) unless auth already set
   * `request.accountId`.
   */
  hook?: "onRequest" | "preHandler";
  /** Override the bucket key (default: the API key, by its id once auth ran, else IP). */
  keyOf?: (request: FastifyRequest) => string;
  now?: () => number;
}

/**
 * One bucket per API key: two keys of one account, say a
 * production server and a CI job, do not slow each other down. Once auth ran, the key's id (auth
 * hashed the secret already); before it (a limiter on an earlier hook), the secret hashed like the
 * key store does, so it never sits in memory as a map key. Without a bearer token: an account that
 * auth set some other way, else the caller's IP.
 */
export function defaultRateLimitKey(request: FastifyRequest): string {
  const keyId = (request as FastifyRequest & { apiKeyId?: unknown }).apiKeyId;
  if (typeof keyId === "string" && keyId !== "") return `key:${keyId}`;
  const auth = request.headers.authorization;
  if (typeof auth === "string" && /^Bearer\s+\S+$/i.test(auth)) {
    const token = auth.replace(/^Bearer\s+/i, "");
    return `key:${createHash("sha256").update(token).digest("hex")}`;
  }
  const accountId = (request as FastifyRequest & { accountId?: unknown }).accountId;
  // "" is the decorator default on unauthenticated routes: not an account.
  if (typeof accountId === "string" && accountId !== "") return `acct:${accountId}`;
  return `ip:${request.ip}`;
}

const LIMIT = "x-ratelimit-limit";
const REMAINING = "x-ratelimit-remaining";
const RESET = "x-ratelimit-reset";

/**
 * Per-API-key token bucket (@fastify/rate-limit with a token bucket store) answering 429
 * rate_limited with `Retry-After`, and on every limited response the IETF draft headers
 * (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "burst";q=<burst>;w=<seconds to refill>`
 * and `RateLimit: "burst";r=<remaining>;t=<seconds until full>`. Routes may set
 * `config: { rateLimit: { max, timeWindow } }` (max = burst, timeWindow = ms to refill it) or
 * `rateLimit: false`.
 */
export const rateLimitPlugin = globalPlugin<RateLimitOptions>("pictor-rate-limit", async (app, options) => {
  const burst = options.burst ?? 100;
  const refillPerSecond = options.refillPerSecond ?? 10;
  const timeWindow = Math.round((burst / refillPerSecond) * 1000);
  const keyOf = options.keyOf ?? defaultRateLimitKey;

  await app.register(rateLimit, {
    global: true,
    max: burst,
    timeWindow,
    hook: options.hook ?? "onRequest",
    store: tokenBucketStore(options.now ? { now: options.now } : {}),
    keyGenerator: keyOf,
    // An in-process call (an MCP tool's API call) is paid for by the request that made it.
    allowList: (request) => Boolean(request.parentRequest),
    addHeaders: { [LIMIT]: true, [REMAINING]: true, [RESET]: true, "retry-after": true },
    addHeadersOnExceeding: { [LIMIT]: true, [REMAINING]: true, [RESET]: true },
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        "rate_limited",
        `Too many requests for this API key; retry in ${Math.max(1, Math.ceil(context.ttl / 1000))} s.`,
      ),
  });

  // The plugin only knows the legacy X-RateLimit-* names; rewrite them into the draft's fields.
  app.addHook("onSend", (request, reply, payload, done) => {
    const limit = reply.getHeader(LIMIT);
    if (limit === undefined) return done(null, payload);
    const remaining = reply.getHeader(REMAINING) ?? 0;
    const reset = reply.getHeader(RESET) ?? 0;
    const routeLimit = request.routeOptions.config.rateLimit;
    const windowMs =
      routeLimit && typeof routeLimit.timeWindow === "number" ? routeLimit.timeWindow : timeWindow;
    reply.removeHeader(LIMIT);
    reply.removeHeader(REMAINING);
    reply.removeHeader(RESET);
    reply.header("ratelimit-policy", `"burst";q=${limit};w=${Math.ceil(windowMs / 1000)}`);
    reply.header("ratelimit", `"burst";r=${remaining};t=${reset}`);
    done(null, payload);
  });
});
