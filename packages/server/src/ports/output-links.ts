import type { AssetRecord } from "./asset-store.ts";

/** Spec section 8: output_url lives about one hour. */
export const OUTPUT_URL_TTL_S = 3600;

/**
 * Makes the short-lived `output_url` of an output asset:
 * whoever holds the link may GET the image bytes, with their content type, for about one hour; a
 * tampered or expired link gives 403. Chosen once in the composition root: an HMAC link served by the
 * API itself, or a presigned URL served by the object store.
 */
export interface OutputLinks {
  /** `base` is the API's absolute base URL (only links the API serves itself use it). */
  outputUrl(asset: AssetRecord, base: string, now: Date): Promise<string>;
}
