import { Type as T } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { encodeCursor, parseAssetQuery } from "../../domain/assets/query-request.ts";
import type { AssetPage } from "../../ports/asset-library.ts";
import type { App, AppDeps } from "../app-types.ts";
import { orThrow } from "../failure.ts";
import { listOf } from "../schemas.ts";
import { Asset, assetView, FolderField } from "./asset-view.ts";

const TagList = T.Array(T.String({ minLength: 1, maxLength: 100 }), { maxItems: 20 });
const Timestamp = T.String({
  minLength: 1,
  maxLength: 40,
  description:
    "An ISO-8601 timestamp, e.g. 2026-05-01T00:00:00Z (anything Date.parse cannot read is 400 invalid_request)",
});

export const AssetQueryBody = T.Object(
  {
    tags: T.Optional(
      T.Union(
        [
          TagList,
          T.Object({ all: T.Optional(TagList), any: T.Optional(TagList) }, { additionalProperties: false }),
        ],
        { description: "A bare array means all of them" },
      ),
    ),
    metadata: T.Optional(
      T.Record(T.String({ minLength: 1, maxLength: 100 }), T.String({ maxLength: 1000 }), {
        maxProperties: 20,
        description: "Every key must equal its value",
      }),
    ),
    folder: T.Optional(FolderField),
    recursive: T.Optional(T.Boolean({ description: "Include subfolders of `folder` (default false)" })),
    content_type: T.Optional(
      T.Union([
        T.String({ minLength: 1, maxLength: 100 }),
        T.Array(T.String({ minLength: 1, maxLength: 100 }), { maxItems: 10 }),
      ]),
    ),
    created: T.Optional(
      T.Object(
        {
          gt: T.Optional(Timestamp),
          gte: T.Optional(Timestamp),
          lt: T.Optional(Timestamp),
          lte: T.Optional(Timestamp),
        },
        { additionalProperties: false },
      ),
    ),
    limit: T.Optional(T.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: T.Optional(T.String({ minLength: 1, maxLength: 400 })),
  },
  { additionalProperties: false },
);

export function pageView(deps: AppDeps, request: FastifyRequest, page: AssetPage) {
  return {
    data: page.assets.map((a) => assetView(deps, request, a)),
    next_cursor: page.next ? encodeCursor(page.next) : null,
  };
}

export function registerAssetsQuery(app: App, deps: AppDeps): void {
  app.post(
    "/v1/assets/query",
    {
      schema: {
        summary: "Search the asset library by tags, metadata, folder, content type and creation time",
        description:
          "Filters combine with AND. Newest first; pass `next_cursor` back as `cursor` with the same filters for the next page.",
        tags: ["assets"],
        body: AssetQueryBody,
        response: { 200: listOf(Asset, "AssetList") },
      },
    },
    async (request) => {
      const query = orThrow(parseAssetQuery(request.body));
      return pageView(deps, request, await deps.assetLibrary.query(request.accountId, query));
    },
  );
}
