import { publishTemplate } from "../../domain/templates.ts";
import type { App, AppDeps } from "../app-types.ts";
import { orThrow } from "../failure.ts";
import { fontWarnings, TemplateDetailWithWarnings } from "../font-warnings.ts";
import { IdParams } from "../schemas.ts";
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
        response: { 200: TemplateDetailWithWarnings },
      },
    },
    async (request) => {
      const template = await findTemplateOr404(deps, request.accountId, request.params.id);
      const published = orThrow(await publishTemplate(deps, request.accountId, template.id));
      const warnings = await fontWarnings(deps, request.accountId, published.draft);
      return { ...templateDetail(published), warnings };
    },
  );
}
