import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";
import { IdParams, TemplateDetail } from "../schemas.ts";
import { templateDetail } from "../views.ts";

export function registerTemplateGet(app: App, deps: AppDeps): void {
  app.get(
    "/v1/templates/:id",
    {
      schema: {
        summary: "Read a template and its draft",
        tags: ["templates"],
        params: IdParams,
        response: { 200: TemplateDetail },
      },
    },
    async (request) => {
      const template = await deps.templates.find(request.accountId, request.params.id);
      if (!template) throw notFound(`template '${request.params.id}'`);
      return templateDetail(template);
    },
  );
}
