import { createHmac, timingSafeEqual } from "node:crypto";

// Spec section 6: `X-Service-Signature: sha256=<hex>`, the lowercase hex HMAC-SHA256 of the raw body
// keyed with the account's webhook secret. The server signs with signCallback and receivers verify
// with verifyCallback, so one piece of code defines the scheme on both ends.

const SIGNATURE_PREFIX = "sha256=";
// "sha256=" + 64 hex digits; any other length cannot match and is rejected before comparing.
const SIGNATURE_LENGTH = SIGNATURE_PREFIX.length + 64;

export type CallbackBody = string | Uint8Array;

function requireSecret(secret: string): string {
  if (typeof secret !== "string" || secret.length === 0) {
    throw new TypeError("webhook secret must be a non-empty string");
  }
  return secret;
}

/** `sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes (strings are taken as UTF-8). */
export function signCallback(rawBody: CallbackBody, secret: string): string {
  const hmac = createHmac("sha256", requireSecret(secret));
  hmac.update(rawBody);
  return SIGNATURE_PREFIX + hmac.digest("hex");
}

/**
 * True when `signatureHeader` is the signature of `rawBody` under one of `secret` (pass the current
 * and the previous secret during a rotation grace period). Verify the RAW body as received: parsing
 * and re-serialising JSON changes the bytes. Uppercase hex, a missing `sha256=` prefix or a wrong
 * length never match. Throws TypeError only for a missing secret (a configuration bug).
 */
export function verifyCallback(
  rawBody: CallbackBody,
  signatureHeader: string | null | undefined,
  secret: string | readonly string[],
): boolean {
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError("at least one webhook secret is required");
  for (const s of secrets) requireSecret(s);
  if (typeof signatureHeader !== "string") return false;
  const received = Buffer.from(signatureHeader, "utf8");
  if (received.length !== SIGNATURE_LENGTH) return false;
  let matched = false;
  // Every secret is tried even after a match so the time taken does not reveal which one matched.
  for (const s of secrets) {
    const expected = Buffer.from(signCallback(rawBody, s), "utf8");
    if (expected.length === received.length && timingSafeEqual(expected, received)) matched = true;
  }
  return matched;
}
