import { LRUCache } from "lru-cache";
import { assetIdOf } from "../../domain/render-request.ts";
import type { BlobStore } from "../../ports/blob-store.ts";
import { OutboundError, type SafeFetch } from "../../ports/safe-fetch.ts";
import { fromInputStore } from "./input-store-fault.ts";

/**
 * The cache key of an `asset://` reference in a render of `accountId`: per account, so another
 * account's render is never handed the asset from a cache. Null for any other source.
 */
export function accountAssetKey(accountId: string, src: string): string | null {
  return assetIdOf(src) !== null ? `${accountId} ${src}` : null;
}

/** An input image that cannot be loaded: the render fails with this code and is refunded. */
export class ImageLoadError extends Error {
  readonly code = "image_fetch_failed" as const;
}

const MAX_IMAGE_BYTES = 25 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

/**
 * Resolves image references for the renderer inside a worker: `asset://ast_…` from the blob store
 * (starter images, uploads, earlier outputs), http(s) through the SSRF-guarded SafeFetch only.
 * Fetched bytes are cached briefly so a burst of renders with the same image fetches it once.
 */
export function createImageLoader(deps: {
  /** The asset's blob key, null when the account has no such asset (ports/render-lookups.ts). */
  blobKeyOf(accountId: string, assetId: string): Promise<string | null>;
  blobs: BlobStore;
  safeFetch: SafeFetch;
}) {
  const cache = new LRUCache<string, Uint8Array>({
    maxSize: 128 * 1024 * 1024,
    sizeCalculation: (v) => Math.max(1, v.byteLength),
    ttl: 60_000,
  });

  /** `accountId`: whose render it is; an `asset://` reference resolves only to that account's assets. */
  return async function loadImage(accountId: string, src: string): Promise<Uint8Array> {
    const key = accountAssetKey(accountId, src) ?? src;
    const cached = cache.get(key);
    if (cached) return cached;
    const bytes = await load(accountId, src);
    cache.set(key, bytes);
    return bytes;
  };

  async function load(accountId: string, src: string): Promise<Uint8Array> {
    const assetId = assetIdOf(src);
    if (assetId !== null) {
      const blobKey = await fromInputStore("looking up the image's asset", () =>
        deps.blobKeyOf(accountId, assetId),
      );
      const bytes = blobKey
        ? await fromInputStore("reading the image from the object store", () => deps.blobs.get(blobKey))
        : null;
      if (!bytes) throw new ImageLoadError(`Asset ${assetId} is not available.`);
      return bytes;
    }
    if (!/^https?:\/\//i.test(src))
      throw new ImageLoadError(`Unsupported image reference '${src.slice(0, 100)}'.`);
    try {
      const res = await deps.safeFetch.fetch(src, { maxBytes: MAX_IMAGE_BYTES, timeoutMs: FETCH_TIMEOUT_MS });
      if (res.status < 200 || res.status > 299) {
        throw new ImageLoadError(`Fetching the image returned HTTP ${res.status}.`);
      }
      return res.body;
    } catch (error) {
      if (error instanceof OutboundError) {
        throw new ImageLoadError(error.describe("the image"));
      }
      throw error;
    }
  }
}
