import type { App, AppDeps } from "../app-types.ts";
import { IdParams, TemplateDetail } from "../schemas.ts";
import { templateDetail } from "../views.ts";
import { findTemplateOr404 } from "./find-or-404.ts";

export function registerTemplateArchive(app: App, deps: AppDeps): void {
  app.post(
    "/v1/templates/:id/archive",
    {
      schema: {
        summary: "Archive a template: hidden from lists, no new renders; publishing again restores it",
        tags: ["templates"],
        params: IdParams,
        response: { 200: TemplateDetail },
      },
    },
    async (request) => {
      const template = await findTemplateOr404(deps, request.accountId, request.params.id);
      await deps.templates.archive(request.accountId, template.id, deps.clock.now().toISOString());
      return templateDetail((await deps.templates.find(request.accountId, template.id)) ?? template);
    },
  );
}
