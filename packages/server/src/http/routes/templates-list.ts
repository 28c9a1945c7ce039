import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { pageOf } from "../paging.ts";
import { idCursorQuery, listOf, TemplateSummary } from "../schemas.ts";
import { templateSummary } from "../views.ts";

export const TemplatesListQuery = T.Composite([
  idCursorQuery("tpl"),
  T.Object({ include_drafts: T.Optional(T.Boolean()) }),
]);

export function registerTemplatesList(app: App, deps: AppDeps): void {
  app.get(
    "/v1/templates",
    {
      schema: {
        summary: "List published templates (drafts too with include_drafts=true)",
        tags: ["templates"],
        querystring: TemplatesListQuery,
        response: { 200: listOf(TemplateSummary, "TemplateList") },
      },
    },
    async (request) =>
      pageOf(
        request.query.limit,
        (limit) =>
          deps.templates.list(request.accountId, {
            limit,
            after: request.query.cursor ?? null,
            publishedOnly: request.query.include_drafts !== true,
          }),
        (t) => t.id,
        templateSummary,
      ),
  );
}
