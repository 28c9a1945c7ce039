import { Type as T } from "@sinclair/typebox";
import { deleteAsset } from "../../domain/assets/delete-asset.ts";
import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";
import { IdParams } from "../schemas.ts";

/**
 * Removes the asset from the library: its asset_url answers 404 from then on and renders naming it
 * fail validation. Its bytes leave the blob store when no other record names them.
 */
export function registerAssetDelete(app: App, deps: AppDeps): void {
  app.delete(
    "/v1/assets/:id",
    {
      schema: {
        summary: "Delete an asset",
        tags: ["assets"],
        params: IdParams,
        response: { 204: T.Null({ description: "Deleted" }) },
      },
    },
    async (request, reply) => {
      const removed = await deleteAsset(
        { library: deps.assetLibrary, blobs: deps.blobs },
        request.accountId,
        request.params.id,
      );
      if (!removed) throw notFound("asset");
      return reply.code(204).send(null);
    },
  );
}
