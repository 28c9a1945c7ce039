import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { pageOf } from "../paging.ts";
import { IdParams, listOf, listQueryWithCursor } from "../schemas.ts";
import { findTemplateOr404 } from "./find-or-404.ts";

const Version = T.Object({
  version: T.Integer(),
  published_at: T.String(),
  document: T.Unknown({ title: "TemplateDocument", description: "The document as published" }),
});

const VersionsQuery = listQueryWithCursor("^[1-9][0-9]{0,8}$", "a version number");

export function registerTemplateVersions(app: App, deps: AppDeps): void {
  app.get(
    "/v1/templates/:id/versions",
    {
      schema: {
        summary: "List published versions, oldest first",
        tags: ["templates"],
        params: IdParams,
        querystring: VersionsQuery,
        response: { 200: listOf(Version, "TemplateVersionList") },
      },
    },
    async (request) => {
      const template = await findTemplateOr404(deps, request.accountId, request.params.id);
      const { cursor } = request.query;
      return pageOf(
        request.query.limit,
        (limit) =>
          deps.templates.versions(template.id, {
            limit,
            afterVersion: cursor === undefined ? null : Number(cursor),
          }),
        (v) => String(v.version),
        (v) => ({
          version: v.version,
          published_at: v.publishedAt,
          document: v.document,
        }),
      );
    },
  );
}
