import { Type as T } from "@sinclair/typebox";
import { parseAssetQuery } from "../../domain/assets/query-request.ts";
import type { App, AppDeps } from "../app-types.ts";
import { orThrow } from "../failure.ts";
import { ListQuery, listOf } from "../schemas.ts";
import { Asset, assetView, FolderField } from "./asset-view.ts";
import { pageView } from "./assets-query.ts";

/** The library as a file browser: one folder (or everything), newest first. */
export function registerAssetsList(app: App, deps: AppDeps): void {
  app.get(
    "/v1/assets",
    {
      schema: {
        summary: "List assets, optionally of one folder (with its subfolders when recursive=true)",
        tags: ["assets"],
        querystring: T.Composite([
          ListQuery,
          T.Object({ folder: T.Optional(FolderField), recursive: T.Optional(T.Boolean()) }),
        ]),
        response: { 200: listOf(Asset, "AssetList") },
      },
    },
    async (request) => {
      const { folder, recursive, limit, cursor } = request.query;
      const query = orThrow(
        parseAssetQuery({
          ...(folder !== undefined ? { folder } : {}),
          ...(recursive !== undefined ? { recursive } : {}),
          ...(limit !== undefined ? { limit } : {}),
          ...(cursor !== undefined ? { cursor } : {}),
        }),
      );
      return pageView(deps, request, await deps.assetLibrary.query(request.accountId, query));
    },
  );

  app.get(
    "/v1/assets/fonts",
    {
      schema: {
        summary: "The account's uploaded fonts: family, weight and style, for templates and the editor",
        tags: ["assets"],
        description:
          'Every font in one answer (an editor needs them all to draw); `next_cursor` is always null. To page through them, use `POST /v1/assets/query` with `content_type: ["font/ttf", "font/otf", "font/woff", "font/woff2"]`.',
        response: { 200: listOf(Asset, "AssetList") },
      },
    },
    async (request) => ({
      data: (await deps.assetLibrary.fonts(request.accountId)).map((a) => assetView(deps, request, a)),
      next_cursor: null,
    }),
  );
}
