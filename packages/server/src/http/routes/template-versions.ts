import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { IdParams, listOf, listQueryWithCursor } from "../schemas.ts";
import { findTemplateOr404 } from "./find-or-404.ts";

const Version = T.Object({ version: T.Integer(), published_at: T.String(), document: T.Unknown() });

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
        response: { 200: listOf(Version) },
      },
    },
    async (request) => {
      const template = await findTemplateOr404(deps, request.accountId, request.params.id);
      const limit = request.query.limit ?? 50;
      const { cursor } = request.query;
      const rows = await deps.templates.versions(template.id, {
        limit: limit + 1,
        afterVersion: cursor === undefined ? null : Number(cursor),
      });
      const page = rows.slice(0, limit);
      return {
        data: page.map((v) => ({
          version: v.version,
          published_at: v.publishedAt,
          document: v.document,
        })),
        next_cursor: rows.length > limit ? String(page.at(-1)?.version) : null,
      };
    },
  );
}
