import type { App, AppDeps } from "../app-types.ts";
import { IdParams, TemplateDetail } from "../schemas.ts";
import { templateDetail } from "../views.ts";
import { findTemplateOr404 } from "./find-or-404.ts";

export function registerTemplatePublish(app: App, deps: AppDeps): void {
  app.post(
    "/v1/templates/:id/publish",
    {
      schema: {
        summary:
          "Freeze the draft as the next immutable version; renders accepted earlier keep their version",
        tags: ["templates"],
        params: IdParams,
        response: { 200: TemplateDetail },
      },
    },
    async (request) => {
      const template = await findTemplateOr404(deps, request.accountId, request.params.id);
      await deps.templates.publish(request.accountId, template.id, deps.clock.now().toISOString());
      return templateDetail((await deps.templates.find(request.accountId, template.id)) ?? template);
    },
  );
}
