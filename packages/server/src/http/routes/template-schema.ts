import { Type as T } from "@sinclair/typebox";
import { slotSchema } from "../../domain/template-document.ts";
import type { App, AppDeps } from "../app-types.ts";
import { IdParams } from "../schemas.ts";
import { findTemplateOr404 } from "./find-or-404.ts";

const SlotSchema = T.Object(
  {
    name: T.String(),
    type: T.Union([T.Literal("text"), T.Literal("image"), T.Literal("color")]),
    folder: T.Optional(T.String()),
    default: T.Optional(T.String()),
    max_length: T.Optional(T.Integer()),
    rich: T.Optional(
      T.Boolean({ description: "Values are rich text markup: <b>, <i>, <u>, <s>, <color value>, <br>" }),
    ),
    description: T.Optional(T.String()),
    frames: T.Array(T.String(), {
      description:
        "Frames whose layout uses the slot (binds it, or shows a layer only for some of its values)",
    }),
  },
  { additionalProperties: false },
);

export function registerTemplateSchema(app: App, deps: AppDeps): void {
  app.get(
    "/v1/templates/:id/schema",
    {
      schema: {
        summary: "The slot contract of a template (published version; the draft if never published)",
        tags: ["templates"],
        params: IdParams,
        response: { 200: T.Object({ slots: T.Array(SlotSchema) }) },
      },
    },
    async (request) => {
      const template = await findTemplateOr404(deps, request.accountId, request.params.id);
      const version =
        template.publishedVersion === null
          ? null
          : await deps.templates.version(template.id, template.publishedVersion);
      return slotSchema(version?.document ?? template.draft);
    },
  );
}
