import { Type as T, type TSchema } from "@sinclair/typebox";

/** Shared response schemas; each route file keeps its own request schema. */

/** The router refuses a path parameter over this many characters (Fastify's maxParamLength). */
export const MAX_PATH_PARAM_LENGTH = 100;

export const IdParams = T.Object({ id: T.String({ minLength: 1, maxLength: MAX_PATH_PARAM_LENGTH }) });

export const ListQuery = T.Object({
  limit: T.Optional(T.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: T.Optional(T.String({ maxLength: 200 })),
});

/**
 * A list's query whose cursor has a known form (an id with its prefix, a number): anything else is
 * 400 invalid_request, not silently read as "from the start" or "nothing after this".
 */
export const listQueryWithCursor = (pattern: string, description: string) =>
  T.Object({
    limit: ListQuery.properties.limit,
    cursor: T.Optional(
      T.String({ pattern, description: `next_cursor of the previous page (${description})` }),
    ),
  });

/** An id cursor: `prefix_` and the id's random part. */
export const idCursorQuery = (prefix: string) =>
  listQueryWithCursor(`^${prefix}_[A-Za-z0-9]{1,64}$`, `${prefix}_…`);

/** A page of `item`s; `title` names it in the OpenAPI document (`AssetList`). */
export const listOf = <S extends TSchema>(item: S, title?: string) =>
  T.Object(
    { data: T.Array(item), next_cursor: T.Union([T.String(), T.Null()]) },
    title === undefined ? {} : { title },
  );

const Warning = T.Object(
  { code: T.String(), slot: T.Union([T.String(), T.Null()]), message: T.String() },
  { title: "RenderWarning" },
);

export const Job = T.Object(
  {
    id: T.String({ description: "rnd_…" }),
    status: T.Union([
      T.Literal("queued"),
      T.Literal("rendering"),
      T.Literal("completed"),
      T.Literal("failed"),
    ]),
    template: T.String({ description: "Addressing key of the template" }),
    template_version: T.Integer({ description: "Published version pinned at acceptance" }),
    frame: T.String({ description: "The frame drawn; for a PDF, the first page's" }),
    frames: T.Array(T.String(), { description: "The frames drawn, in page order (an image: its one frame)" }),
    pages: T.Union([T.Integer({ minimum: 1 }), T.Null()], {
      description: "A PDF's page count; null for an image",
    }),
    dpi: T.Union([T.Number(), T.Null()], {
      description: "A PDF's density: frame pixels per inch (page size = frame size / dpi); null for an image",
    }),
    scale: T.Number(),
    format: T.Union([
      T.Literal("png"),
      T.Literal("jpeg"),
      T.Literal("webp"),
      T.Literal("pdf"),
      T.Literal("gif"),
      T.Literal("mp4"),
    ]),
    animation: T.Optional(
      T.Object(
        {
          frame_count: T.Integer({ minimum: 1, description: "Frames drawn: duration x fps" }),
          fps: T.Integer({ minimum: 1 }),
          duration: T.Number({ description: "Seconds" }),
        },
        {
          description:
            "Animated renders only (gif, mp4, animated webp; a Pictor extension): their frames and duration. Absent for stills",
        },
      ),
    ),
    width: T.Integer({ description: "Output width in pixels; for a PDF, of the first page's image" }),
    height: T.Integer({ description: "Output height in pixels; for a PDF, of the first page's image" }),
    credits_charged: T.Integer({ description: "ceil(scale²) per image or PDF page" }),
    credits_refunded: T.Integer(),
    output_url: T.Union([T.String({ description: "Signed, valid one hour" }), T.Null()]),
    asset_url: T.Union([T.String({ description: "Permanent" }), T.Null()]),
    asset_id: T.Union([T.String(), T.Null()]),
    metadata: T.Record(T.String(), T.String()),
    tags: T.Array(T.String()),
    warnings: T.Array(Warning),
    error: T.Union([T.Object({ code: T.String(), message: T.String() }), T.Null()]),
    webhook_url: T.Union([T.String(), T.Null()]),
    created_at: T.String({ format: "date-time" }),
    completed_at: T.Union([T.String({ format: "date-time" }), T.Null()]),
  },
  { title: "Render", description: "A render job" },
);

export const TemplateSummary = T.Object(
  {
    id: T.String(),
    key: T.String(),
    name: T.String(),
    description: T.Union([T.String(), T.Null()]),
    status: T.Union([T.Literal("draft"), T.Literal("published"), T.Literal("archived")]),
    published_version: T.Union([T.Integer(), T.Null()]),
    frames: T.Array(T.Object({ name: T.String(), width: T.Integer(), height: T.Integer() })),
    created_at: T.String(),
    updated_at: T.String(),
  },
  { title: "TemplateSummary" },
);

export const TemplateDetail = T.Composite(
  [
    TemplateSummary,
    T.Object({
      document: T.Unknown({ title: "TemplateDocument", description: "The draft template document" }),
    }),
  ],
  { title: "Template" },
);
