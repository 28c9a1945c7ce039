import { Type as T } from "@sinclair/typebox";
import { createTemplate } from "../../domain/templates.ts";
import type { App, AppDeps } from "../app-types.ts";
import { orThrow } from "../failure.ts";
import { fontWarnings, TemplateDetailWithWarnings } from "../font-warnings.ts";
import { templateDetail } from "../views.ts";

export const DocumentBody = T.Object(
  {
    document: T.Unknown({
      title: "TemplateDocumentInput",
      description:
        "A template document of the current version; a document of an earlier version is accepted and stored migrated to the current one",
    }),
  },
  { title: "TemplateDocumentBody", additionalProperties: false },
);

export function registerTemplateCreate(app: App, deps: AppDeps): void {
  app.post(
    "/v1/templates",
    {
      schema: {
        summary: "Create a draft template from a document",
        tags: ["templates"],
        body: T.Composite([DocumentBody, T.Object({ publish: T.Optional(T.Boolean()) })], {
          additionalProperties: false,
        }),
        response: { 201: TemplateDetailWithWarnings },
      },
    },
    async (request, reply) => {
      const created = orThrow(
        await createTemplate(deps, request.accountId, request.body.document, {
          publish: request.body.publish === true,
        }),
      );
      reply.header("Location", `/v1/templates/${created.id}`);
      const warnings = await fontWarnings(deps, request.accountId, created.draft);
      return reply.code(201).send({ ...templateDetail(created), warnings });
    },
  );
}
