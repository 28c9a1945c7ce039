import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { IdParams, listOf } from "../schemas.ts";
import { findTemplateOr404 } from "./find-or-404.ts";

const Version = T.Object({ version: T.Integer(), published_at: T.String(), document: T.Unknown() });

export function registerTemplateVersions(app: App, deps: AppDeps): void {
  app.get(
    "/v1/templates/:id/versions",
    {
      schema: {
        summary: "List published versions",
        tags: ["templates"],
        params: IdParams,
        response: { 200: listOf(Version) },
      },
    },
    async (request) => {
      const template = await findTemplateOr404(deps, request.accountId, request.params.id);
      const versions = await deps.templates.versions(template.id);
      return {
        data: versions.map((v) => ({
          version: v.version,
          published_at: v.publishedAt,
          document: v.document,
        })),
        next_cursor: null,
      };
    },
  );
}
