import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";
import { IdParams } from "../schemas.ts";

/**
 * Removes the asset from the library: its asset_url answers 404 from then on and renders naming it
 * fail validation. The bytes stay in the blob store (BlobStore has no delete yet; see docs/assets.md).
 */
export function registerAssetDelete(app: App, deps: AppDeps): void {
  app.delete(
    "/v1/assets/:id",
    { schema: { summary: "Delete an asset", tags: ["assets"], params: IdParams } },
    async (request, reply) => {
      const removed = await deps.assetLibrary.delete(request.accountId, request.params.id);
      if (!removed) throw notFound("asset");
      return reply.code(204).send();
    },
  );
}
