import { createHmac, timingSafeEqual } from "node:crypto";

/** Spec section 8: output_url lives about one hour. */
export const OUTPUT_URL_TTL_S = 3600;

function signature(secret: Uint8Array, assetId: string, expires: number): string {
  return createHmac("sha256", secret).update(`${assetId}.${expires}`).digest("hex");
}

export function signOutputPath(secret: Uint8Array, assetId: string, ext: string, nowMs: number): string {
  const expires = Math.floor(nowMs / 1000) + OUTPUT_URL_TTL_S;
  return `/o/${assetId}.${ext}?expires=${expires}&sig=${signature(secret, assetId, expires)}`;
}

export function verifyOutputSignature(
  secret: Uint8Array,
  assetId: string,
  expires: string,
  sig: string,
  nowMs: number,
): boolean {
  if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) return false;
  const expected = Buffer.from(signature(secret, assetId, Number(expires)), "hex");
  const given = Buffer.from(sig, "hex");
  return timingSafeEqual(expected, given) && Number(expires) * 1000 > nowMs;
}
