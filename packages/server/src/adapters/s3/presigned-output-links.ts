import { OUTPUT_URL_TTL_S, type OutputLinks } from "../../ports/output-links.ts";
import type { S3BlobStore } from "./blob-store.ts";

/**
 * `output_url` in object-storage mode: a SigV4 presigned GET of the asset's blob, valid one hour from
 * `now`, so the object store checks signature and expiry and the API never proxies output bytes.
 * The content type is signed into the URL because starter and upload keys need not carry an extension.
 */
export function presignedOutputLinks(store: Pick<S3BlobStore, "presignGet">): OutputLinks {
  return {
    outputUrl: (asset, _base, now) =>
      store.presignGet(asset.blobKey, OUTPUT_URL_TTL_S, now, asset.contentType),
  };
}
