import type { FastifyRequest } from "fastify";
import { sha256 } from "../domain/ids.ts";
import type { AccountStore } from "../ports/account-store.ts";
import type { Clock } from "../ports/clock.ts";
import { ApiError } from "./errors.ts";

const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/;
// last_used_at is for humans deciding which key to revoke; minute precision spares a write per request.
const TOUCH_EVERY_MS = 60_000;

/**
 * Every failure (no header, another scheme, empty, unknown, revoked) is the same 401 body, so a
 * caller learns nothing about which keys exist. Keys are looked up by SHA-256; the stored hash is
 * compared in constant time as well.
 */
export function createAuthenticator(deps: { accounts: AccountStore; clock: Clock }) {
  const touched = new Map<string, number>();
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const match = BEARER.exec(request.headers.authorization ?? "");
    const secret = match?.[1];
    if (secret === undefined || !secret.startsWith("sk_live_")) throw unauthorized();
    const hash = sha256(secret);
    const found = await deps.accounts.findKeyByHash(hash);
    if (!found || !timingSafeMatch(found.hash, hash)) throw unauthorized();
    request.accountId = found.key.accountId;
    request.apiKeyId = found.key.id;
    const now = deps.clock.now();
    if (now.getTime() - (touched.get(found.key.id) ?? 0) > TOUCH_EVERY_MS) {
      touched.set(found.key.id, now.getTime());
      await deps.accounts.touchKey(found.key.id, now.toISOString());
    }
  };
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
