import { updateDraft } from "../../domain/templates.ts";
import type { App, AppDeps } from "../app-types.ts";
import { orThrow } from "../failure.ts";
import { fontWarnings, TemplateDetailWithWarnings } from "../font-warnings.ts";
import { IdParams } from "../schemas.ts";
import { templateDetail } from "../views.ts";
import { DocumentBody } from "./template-create.ts";

/** PUT and PATCH both replace the whole draft document: a document is validated as one unit. */
export function registerTemplateUpdate(app: App, deps: AppDeps): void {
  for (const method of ["PUT", "PATCH"] as const) {
    app.route({
      method,
      url: "/v1/templates/:id",
      schema: {
        summary: "Replace the draft document (published versions are not affected)",
        tags: ["templates"],
        params: IdParams,
        body: DocumentBody,
        response: { 200: TemplateDetailWithWarnings },
      },
      handler: async (request) => {
        const updated = orThrow(
          await updateDraft(deps, request.accountId, request.params.id, request.body.document),
        );
        const warnings = await fontWarnings(deps, request.accountId, updated.draft);
        return { ...templateDetail(updated), warnings };
      },
    });
  }
}
