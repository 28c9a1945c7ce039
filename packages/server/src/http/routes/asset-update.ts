import { Type as T } from "@sinclair/typebox";
import { sanitizeAssetName } from "../../domain/assets/asset-name.ts";
import { normalizeFolder } from "../../domain/assets/folders.ts";
import { FONT_FOLDER } from "../../domain/assets/upload.ts";
import type { AssetPatch } from "../../ports/asset-library.ts";
import type { App, AppDeps } from "../app-types.ts";
import { notFound, orThrow } from "../failure.ts";
import { IdParams } from "../schemas.ts";
import { Asset, assetView, FolderField, invalidField, Tags } from "./asset-view.ts";

const PatchBody = T.Object(
  {
    folder: T.Optional(FolderField),
    name: T.Optional(T.String({ minLength: 1, maxLength: 200 })),
    tags: T.Optional(Tags),
    metadata: T.Optional(
      T.Record(
        T.String({ minLength: 1, maxLength: 100 }),
        T.Union([T.String({ maxLength: 1000 }), T.Null()]),
        {
          maxProperties: 50,
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

/**
 * PATCH semantics: `folder` and `name` replace, `tags` replaces the whole list, `metadata` merges
 * key by key and a null value removes the key (as Stripe's metadata does).
 */
export function registerAssetUpdate(app: App, deps: AppDeps): void {
  app.patch(
    "/v1/assets/:id",
    {
      schema: {
        summary: "Move, rename, retag or change the metadata of an asset",
        tags: ["assets"],
        params: IdParams,
        body: PatchBody,
        response: { 200: Asset },
      },
    },
    async (request) => {
      const body = request.body;
      const current = await deps.assetLibrary.get(request.accountId, request.params.id);
      if (!current) throw notFound("asset");
      const patch: AssetPatch = {};
      if (body.folder !== undefined) {
        patch.folder = orThrow(normalizeFolder(body.folder, "folder"));
        if (current.font && !patch.folder.startsWith(FONT_FOLDER)) {
          throw invalidField({
            path: "folder",
            message: `Fonts stay in '${FONT_FOLDER}' or a folder below it.`,
          });
        }
      }
      if (body.name !== undefined) {
        // The same rule as an upload's file name; a name with nothing usable left is refused.
        patch.name = sanitizeAssetName(body.name);
        if (patch.name === "") {
          throw invalidField({
            path: "name",
            message: "The name has nothing left once path segments and control characters are removed.",
          });
        }
      }
      if (body.tags !== undefined) patch.tags = [...new Set(body.tags)];
      if (body.metadata !== undefined) {
        const merged: Record<string, string> = { ...current.metadata };
        for (const [key, value] of Object.entries(body.metadata)) {
          if (value === null) delete merged[key];
          else merged[key] = value;
        }
        if (Object.keys(merged).length > 50) {
          throw invalidField({ path: "metadata", message: "An asset has at most 50 metadata keys." });
        }
        patch.metadata = merged;
      }
      const updated = await deps.assetLibrary.update(request.accountId, request.params.id, patch);
      if (!updated) throw notFound("asset");
      return assetView(deps, request, updated);
    },
  );
}
