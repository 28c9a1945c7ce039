import { createHash, randomBytes, randomFillSync } from "node:crypto";

export type IdPrefix = "tpl" | "rnd" | "ast" | "acct" | "key" | "bat" | "evt";

// Ids and tokens draw 16 bytes at a time from a pool filled by the CSPRNG, as randomUUID does: one
// call into OpenSSL per 256 ids instead of one each (a render takes three, on the request's path).
// Every byte is handed out once.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function random16(): Buffer {
  if (poolOffset + 16 > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

/** 128 random bits, base32-ish lowercase: opaque and safe in URLs and file names. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${random16().toString("base64url").replace(/[-_]/g, "x")}`;
}

/** Capability token for permanent asset URLs: at least 128 bits, so it cannot be guessed. */
export function newAssetToken(): string {
  return random16().toString("hex");
}

/** A strong ETag for bytes that never change once stored: unique to them, so not their hash. */
export function newOpaqueEtag(): string {
  return `"${random16().toString("hex")}"`;
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
