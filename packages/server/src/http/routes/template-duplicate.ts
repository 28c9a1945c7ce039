import { Type as T } from "@sinclair/typebox";
import { duplicateTemplate } from "../../domain/templates.ts";
import type { App, AppDeps } from "../app-types.ts";
import { orThrow } from "../failure.ts";
import { IdParams, TemplateDetail } from "../schemas.ts";
import { templateDetail } from "../views.ts";

export function registerTemplateDuplicate(app: App, deps: AppDeps): void {
  app.post(
    "/v1/templates/:id/duplicate",
    {
      schema: {
        summary: "Copy a template's draft into a new draft",
        tags: ["templates"],
        params: IdParams,
        querystring: T.Object({
          key: T.Optional(T.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$", description: "Key of the copy" })),
        }),
        response: { 201: TemplateDetail },
      },
    },
    async (request, reply) => {
      const copy = orThrow(
        await duplicateTemplate(deps, request.accountId, request.params.id, request.query.key),
      );
      reply.header("Location", `/v1/templates/${copy.id}`);
      return reply.code(201).send(templateDetail(copy));
    },
  );
}
