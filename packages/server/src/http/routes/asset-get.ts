import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";
import { IdParams } from "../schemas.ts";
import { Asset, assetView } from "./asset-view.ts";

export function registerAssetGet(app: App, deps: AppDeps): void {
  app.get(
    "/v1/assets/:id",
    { schema: { summary: "Get one asset", tags: ["assets"], params: IdParams, response: { 200: Asset } } },
    async (request) => {
      const asset = await deps.assetLibrary.get(request.accountId, request.params.id);
      if (!asset) throw notFound("asset");
      return assetView(deps, request, asset);
    },
  );
}
