import type { App, AppDeps } from "../app-types.ts";
import { IdParams, TemplateDetail } from "../schemas.ts";
import { templateDetail } from "../views.ts";
import { findTemplateOr404 } from "./find-or-404.ts";

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
      const template = await findTemplateOr404(deps, request.accountId, request.params.id);
      return templateDetail(template);
    },
  );
}
