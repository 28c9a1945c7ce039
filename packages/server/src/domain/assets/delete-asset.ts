import type { AssetLibrary, LibraryAsset } from "../../ports/asset-library.ts";
import type { BlobStore } from "../../ports/blob-store.ts";

export interface DeleteAssetDeps {
  library: AssetLibrary;
  blobs: BlobStore;
}

/**
 * Removes the asset, then its bytes once no asset record names them any more. New records each
 * have a key of their own (uploads, outputs and starter images are keyed by asset id), but uploads
 * stored before that were keyed by hash, and the key is checked rather than assumed, so a record that
 * shares bytes keeps them. The record goes first: a crash in between leaves unreferenced bytes,
 * never a record without its file.
 */
export async function deleteAsset(
  deps: DeleteAssetDeps,
  accountId: string,
  id: string,
): Promise<LibraryAsset | null> {
  const removed = await deps.library.delete(accountId, id);
  if (!removed) return null;
  if (!(await deps.library.isBlobReferenced(removed.blobKey))) await deps.blobs.delete(removed.blobKey);
  return removed;
}
