import type { FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { sha256 } from "../domain/ids.ts";
import type { AccountStore } from "../ports/account-store.ts";
import type { Clock } from "../ports/clock.ts";
import { AuthFailureBudget, type AuthFailureLimit } from "./auth-failure-budget.ts";
import { ApiError } from "./errors.ts";

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/;
// last_used_at is for humans deciding which key to revoke; minute precision spares a write per request.
const TOUCH_EVERY_MS = 60_000;
/** Keys remembered as accepted, for callers whose address is over its failure budget. */
const ACCEPTED_KEYS = 10_000;

/**
 * Every failure (no header, another scheme, empty, unknown, revoked) is the same 401 body, so a
 * caller learns nothing about which keys exist. Keys are looked up by SHA-256; the stored hash is
 * compared in constant time as well.
 *
 * With `failureLimit`, failures are also counted against the caller's IP address
 * (AuthFailureBudget): once an address has used up its budget, a request from it that would fail
 * is answered 429 `rate_limited` with `Retry-After` instead of 401, and without its key being
 * looked up, so sending a different made-up key each time cannot flood the key store. A key this
 * process has accepted before is still looked up and let in: valid keys are limited per key (the
 * rate limit plugin), never by the failures of others sharing their address. The success path pays
 * nothing for this (the budget's check is one `size` read while no address is over budget; keys
 * are remembered only when their last use is written, once a minute).
 */
export function createAuthenticator(deps: {
  accounts: AccountStore;
  clock: Clock;
  failureLimit?: AuthFailureLimit | null;
}) {
  const touched = new Map<string, number>();
  const failures = deps.failureLimit ? new AuthFailureBudget(deps.failureLimit) : null;
  /** SHA-256 (hex) of keys accepted here, recorded with last_used_at; revoked ones drop out on failure. */
  const accepted = new LRUCache<string, true>({ max: ACCEPTED_KEYS });

  /** The error for a failed authentication: 401, or 429 once the caller's address is over budget. */
  function failed(request: FastifyRequest, limitedFor: number): ApiError {
    if (failures === null) return unauthorized();
    const wait = limitedFor > 0 ? limitedFor : failures.charge(request);
    return wait > 0 ? tooManyFailures(wait) : unauthorized();
  }

  return async function authenticate(request: FastifyRequest): Promise<void> {
    const limitedFor = failures === null ? 0 : failures.waitOf(request);
    const match = BEARER.exec(request.headers.authorization ?? "");
    const secret = match?.[1];
    if (secret === undefined || !secret.startsWith("sk_live_")) throw failed(request, limitedFor);
    const hash = sha256(secret);
    if (limitedFor > 0 && !accepted.has(hex(hash))) throw tooManyFailures(limitedFor);
    const found = await deps.accounts.findKeyByHash(hash);
    if (!found || !timingSafeMatch(found.hash, hash)) {
      if (failures !== null) accepted.delete(hex(hash));
      throw failed(request, limitedFor);
    }
    request.accountId = found.key.accountId;
    request.apiKeyId = found.key.id;
    const now = deps.clock.now();
    if (now.getTime() - (touched.get(found.key.id) ?? 0) > TOUCH_EVERY_MS) {
      touched.set(found.key.id, now.getTime());
      if (failures !== null) accepted.set(hex(hash), true);
      await deps.accounts.touchKey(found.key.id, now.toISOString());
    }
  };
}

function hex(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString("hex");
}

function timingSafeMatch(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

export function unauthorized(): ApiError {
  return new ApiError(
    "unauthorized",
    "Missing or invalid API key. Send 'Authorization: Bearer sk_live_…'.",
    {},
    { "WWW-Authenticate": "Bearer" },
  );
}

/** The per-IP budget of failed authentications is used up: like the per-key limiter's 429. */
function tooManyFailures(waitMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError(
    "rate_limited",
    `Too many requests with a missing or invalid API key from this address; retry in ${seconds} s.`,
    {},
    { "Retry-After": String(seconds) },
  );
}
