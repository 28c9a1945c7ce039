import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { LRUCache } from "lru-cache";

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface TokenBucketStoreOptions {
  /** Buckets kept in memory; the least recently used are forgotten (they were full anyway, mostly). */
  maxKeys?: number;
  now?: () => number;
}

export interface TakeResult {
  /** A token was taken; false: the bucket had less than one. */
  taken: boolean;
  /** Tokens left (fractional while refilling). */
  tokens: number;
  /** Taken: ms until the bucket is full again. Refused: ms until it holds the tokens asked for. */
  ttl: number;
  /** Ms until the bucket holds a whole token again (after this take); 0 while it does. */
  nextTokenIn: number;
}

/**
 * Token buckets by key: `max` tokens (the burst), refilled continuously at `max / timeWindow`
 * tokens per ms. A client may burst `max` requests, then sustain the refill rate, instead of a
 * fixed window's "all at the edge" double bursts. Used behind @fastify/rate-limit
 * ({@link tokenBucketStore}) and by the per-IP budget of failed authentications (auth.ts).
 */
export class TokenBuckets {
  readonly #buckets: LRUCache<string, Bucket>;
  readonly #now: () => number;

  constructor(options: TokenBucketStoreOptions = {}) {
    // Bounded by a size of one a key rather than `max`: lru-cache preallocates index arrays for
    // `max` entries (0.4 MB each, 4 MB over the process's buckets), before a single client is seen.
    this.#buckets = new LRUCache<string, Bucket>({
      maxSize: options.maxKeys ?? 100_000,
      sizeCalculation: () => 1,
    });
    this.#now = options.now ?? Date.now;
  }

  /**
   * Takes `cost` tokens (default 1; a cost above `max` is taken as `max`, so it can pass once the
   * bucket is full) from the bucket, or none when it holds fewer.
   */
  take(key: string, max: number, timeWindow: number, cost = 1): TakeResult {
    const t = this.#now();
    const perMs = max / Math.max(1, timeWindow);
    const need = Math.min(Math.max(cost, 0), max);
    const bucket = this.#buckets.get(key) ?? { tokens: max, updatedAt: t };
    bucket.tokens = Math.min(max, bucket.tokens + (t - bucket.updatedAt) * perMs);
    bucket.updatedAt = t;
    this.#buckets.set(key, bucket);
    const untilWhole = (tokens: number) => (tokens >= 1 ? 0 : Math.ceil((1 - tokens) / perMs));
    if (bucket.tokens < need) {
      const wait = Math.ceil((need - bucket.tokens) / perMs);
      return { taken: false, tokens: bucket.tokens, ttl: wait, nextTokenIn: wait };
    }
    bucket.tokens -= need;
    return {
      taken: true,
      tokens: bucket.tokens,
      ttl: Math.ceil((max - bucket.tokens) / perMs),
      nextTokenIn: untilWhole(bucket.tokens),
    };
  }
}

/**
 * {@link TokenBuckets} behind @fastify/rate-limit's store interface (which is built for fixed
 * windows). The plugin passes `max` and `timeWindow`; here they mean a bucket of `max` tokens
 * refilled at `max / timeWindow` tokens per ms.
 *
 * Mapping to the plugin's result: `current` = tokens in use (so `max - current` is what remains);
 * `ttl` = ms until the bucket is full again, or when refused, ms until the next token (the plugin
 * turns that into Retry-After).
 */
export function tokenBucketStore(options: TokenBucketStoreOptions = {}): FastifyRateLimitStoreCtor {
  class TokenBucketStore implements FastifyRateLimitStore {
    readonly #buckets = new TokenBuckets(options);

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      const result = this.#buckets.take(key, max, timeWindow);
      callback(null, {
        current: result.taken ? max - Math.floor(result.tokens) : max + 1,
        ttl: result.ttl,
      });
    }

    child(): FastifyRateLimitStore {
      // A route with its own limit gets its own buckets.
      return new TokenBucketStore();
    }
  }
  return TokenBucketStore as unknown as FastifyRateLimitStoreCtor;
}
