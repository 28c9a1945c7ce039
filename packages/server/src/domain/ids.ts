import { createHash, randomBytes } from "node:crypto";

export type IdPrefix = "tpl" | "rnd" | "ast" | "acct" | "key" | "bat";

/** 128 random bits, base32-ish lowercase: opaque and safe in URLs and file names. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(16).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** Capability token for permanent asset URLs (api-decisions: at least 128 bits). */
export function newAssetToken(): string {
  return randomBytes(16).toString("hex");
}

export function newApiKeySecret(): string {
  return `sk_live_${randomBytes(32).toString("base64url")}`;
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export function sha256(value: string | Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(value).digest());
}

/** What a key list shows: enough to tell keys apart, far too little to use. */
export function keyPrefix(secret: string): string {
  return secret.slice(0, 12);
}
