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

/**
 * A token bucket behind @fastify/rate-limit's store interface (which is built for fixed windows).
 * The plugin passes `max` and `timeWindow`; here they mean a bucket of `max` tokens (the burst)
 * refilled continuously at `max / timeWindow` tokens per ms. So a client may burst `max` requests,
 * then sustain the refill rate, instead of a fixed window's "all at the edge" double bursts.
 *
 * Mapping to the plugin's result: `current` = tokens in use (so `max - current` is what remains);
 * `ttl` = ms until the bucket is full again, or when refused, ms until the next token (the plugin
 * turns that into Retry-After).
 */
export function tokenBucketStore(options: TokenBucketStoreOptions = {}): FastifyRateLimitStoreCtor {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 100_000;

  class TokenBucketStore implements FastifyRateLimitStore {
    readonly #buckets = new LRUCache<string, Bucket>({ max: maxKeys });

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void {
      const t = now();
      const perMs = max / Math.max(1, timeWindow);
      const bucket = this.#buckets.get(key) ?? { tokens: max, updatedAt: t };
      bucket.tokens = Math.min(max, bucket.tokens + (t - bucket.updatedAt) * perMs);
      bucket.updatedAt = t;
      if (bucket.tokens < 1) {
        this.#buckets.set(key, bucket);
        callback(null, { current: max + 1, ttl: Math.ceil((1 - bucket.tokens) / perMs) });
        return;
      }
      bucket.tokens -= 1;
      this.#buckets.set(key, bucket);
      callback(null, {
        current: max - Math.floor(bucket.tokens),
        ttl: Math.ceil((max - bucket.tokens) / perMs),
      });
    }

    child(): FastifyRateLimitStore {
      // A route with its own limit gets its own buckets.
      return new TokenBucketStore();
    }
  }
  return TokenBucketStore as unknown as FastifyRateLimitStoreCtor;
}
