import { Type as T } from "@sinclair/typebox";
import { slotSchema } from "../../domain/template-document.ts";
import type { App, AppDeps } from "../app-types.ts";
import { IdParams } from "../schemas.ts";
import { findTemplateOr404 } from "./find-or-404.ts";

const ListItemSchema = T.Record(T.String(), T.Union([T.String(), T.Number()]));

const SlotSchema = T.Object(
  {
    name: T.String(),
    type: T.Union(
      [
        T.Literal("text"),
        T.Literal("image"),
        T.Literal("color"),
        T.Literal("number"),
        T.Literal("date"),
        T.Literal("list"),
      ],
      {
        description:
          "text, image, color (the specification's), and Pictor's extension: number (value field `number`), date (`date`, ISO 8601) and list (`items`)",
      },
    ),
    folder: T.Optional(T.String()),
    default: T.Optional(
      T.Union([T.String(), T.Number(), T.Array(ListItemSchema)], {
        description: "Text (text, image, color, date slots), a number (number slots) or items (list slots)",
      }),
    ),
    max_length: T.Optional(T.Integer()),
    rich: T.Optional(
      T.Boolean({ description: "Values are rich text markup: <b>, <i>, <u>, <s>, <color value>, <br>" }),
    ),
    min: T.Optional(T.Number({ description: "number slots: the smallest value accepted" })),
    max: T.Optional(T.Number({ description: "number slots: the largest value accepted" })),
    fields: T.Optional(
      T.Array(
        T.Object(
          {
            name: T.String(),
            type: T.Union([T.Literal("text"), T.Literal("number"), T.Literal("image"), T.Literal("color")]),
            required: T.Optional(T.Boolean()),
            max_length: T.Optional(T.Integer()),
          },
          { additionalProperties: false },
        ),
        { description: "list slots: the fields of each item" },
      ),
    ),
    max_items: T.Optional(
      T.Integer({ description: "list slots: the most items a value may hold (at most 100)" }),
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
