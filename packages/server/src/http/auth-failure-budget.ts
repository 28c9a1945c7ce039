import type { FastifyRequest } from "fastify";
import { TokenBuckets } from "./plugins/token-bucket-store.ts";

export interface AuthFailureLimit {
  /** Failed authentications one IP address may make at once. */
  burst: number;
  /** Failed authentications per second an IP address gets back. */
  refillPerSecond: number;
  now?: () => number;
  /** IP addresses whose budget is remembered (least recently charged are forgotten). Default 100,000. */
  maxKeys?: number;
}

/** Expired entries dropped per look, so cleaning keeps up with marking without a timer. */
const SWEEP_PER_LOOK = 2;

/**
 * The per-IP budget of failed authentications: a token bucket per address (the same TokenBuckets
 * as the per-key limiter), charged only when authentication fails. Keyed by the peer address, not
 * by the key sent, so a caller cannot get a fresh bucket by sending a different key each time.
 *
 * The success path must not pay for it (the auth hook runs on every request): the buckets are only
 * touched on a failure, and the check before auth, {@link waitOf}, is one `size` read while no
 * address has used up its budget. Addresses that have are listed in `#empty` with the time they
 * get a token back; the list is swept from its head on every look, so it empties itself.
 */
export class AuthFailureBudget {
  readonly #buckets: TokenBuckets;
  readonly #now: () => number;
  readonly #burst: number;
  readonly #timeWindow: number;
  readonly #maxKeys: number;
  /** Address → when it has a token again; in the order they ran out (roughly expiry order). */
  readonly #empty = new Map<string, number>();

  constructor(limit: AuthFailureLimit) {
    this.#now = limit.now ?? Date.now;
    this.#maxKeys = limit.maxKeys ?? 100_000;
    this.#buckets = new TokenBuckets({ now: this.#now, maxKeys: this.#maxKeys });
    this.#burst = limit.burst;
    this.#timeWindow = (limit.burst / limit.refillPerSecond) * 1000;
  }

  /**
   * Before auth: ms until the caller's address may fail again, 0 if it may now. While it is above
   * 0, a request that would fail auth is answered 429 without looking its key up.
   */
  waitOf(request: FastifyRequest): number {
    if (this.#empty.size === 0) return 0;
    const now = this.#now();
    this.#sweep(now);
    const until = this.#empty.get(request.ip);
    if (until === undefined) return 0;
    if (until > now) return until - now;
    this.#empty.delete(request.ip);
    return 0;
  }

  /**
   * After a failed auth: takes a token from the caller's address. Returns 0 when there was one
   * (answer 401), else ms until there is (answer 429).
   */
  charge(request: FastifyRequest): number {
    const ip = request.ip;
    const result = this.#buckets.take(ip, this.#burst, this.#timeWindow);
    const wait = result.nextTokenIn;
    if (wait === 0) return 0;
    this.#empty.delete(ip); // re-inserted at the end: the map stays in (roughly) expiry order
    this.#empty.set(ip, this.#now() + wait);
    if (this.#empty.size > this.#maxKeys) this.#empty.delete(this.#empty.keys().next().value as string);
    return result.taken ? 0 : wait;
  }

  #sweep(now: number): void {
    let dropped = 0;
    for (const [ip, until] of this.#empty) {
      if (until > now || dropped === SWEEP_PER_LOOK) return;
      this.#empty.delete(ip);
      dropped++;
    }
  }
}
