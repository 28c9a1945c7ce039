import { type Static, Type as T } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { renderFailure } from "../../domain/renders.ts";
import type { RenderRecord } from "../../ports/render-store.ts";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import { orThrow } from "../failure.ts";
import { IDEMPOTENCY_KEY_HEADER } from "../plugins/idempotency.ts";
import { IDEMPOTENCY_KEY_HEADER_SCHEMA, PREFER_HEADER_SCHEMA } from "../plugins/openapi.ts";
import { Job } from "../schemas.ts";
import { jobView } from "../views.ts";

/** `wait` is at most 60 s (a longer wait holds a connection that proxies would cut anyway). */
const MAX_WAIT_S = 60;

const Modification = T.Object(
  {
    name: T.String({ minLength: 1, maxLength: 64 }),
    text: T.Optional(T.String({ maxLength: 10_000 })),
    image_url: T.Optional(T.String({ minLength: 1, maxLength: 2048 })),
    color: T.Optional(T.String({ pattern: "^#[0-9A-Fa-f]{6}$", description: "#RRGGBB" })),
    number: T.Optional(T.Number({ description: "Number slots (a Pictor extension): a JSON number" })),
    date: T.Optional(
      T.String({
        minLength: 1,
        maxLength: 64,
        description: 'Date slots (a Pictor extension): ISO 8601, "2026-11-28" or "2026-11-28T18:30:00Z"',
      }),
    ),
    items: T.Optional(
      T.Array(T.Record(T.String({ maxLength: 64 }), T.Union([T.String({ maxLength: 10_000 }), T.Number()])), {
        maxItems: 100,
        description:
          "List slots (a Pictor extension): the items, at most 100, each field name -> text or number as the slot's fields declare",
      }),
    ),
  },
  {
    title: "Modification",
    description:
      "One slot's value: `name` and the one value field its slot type takes (text, image_url, color, number, date or items); a value field the slot does not take is 400 invalid_request",
    additionalProperties: false,
  },
);

export const RenderRequestBody = T.Object(
  {
    template: T.String({ minLength: 1, maxLength: 200, description: "Template key or id" }),
    modifications: T.Array(Modification, { maxItems: 200 }),
    scale: T.Optional(
      T.Number({ minimum: 1, maximum: 4, default: 1, description: "1 to 4; cost ceil(scale²)" }),
    ),
    format: T.Optional(
      T.Union(
        [
          T.Literal("png"),
          T.Literal("jpg"),
          T.Literal("jpeg"),
          T.Literal("webp"),
          T.Literal("pdf"),
          T.Literal("gif"),
          T.Literal("mp4"),
        ],
        {
          description:
            "png (default), jpg/jpeg, webp, or pdf: one page per frame (see frames). A Pictor extension for animated frames: gif, mp4 (H.264; needs ffmpeg on the server), or webp with animated: true",
        },
      ),
    ),
    animated: T.Optional(
      T.Boolean({
        description:
          "webp only (a Pictor extension): an animated WebP of the frame's motion, lossless unless quality is given",
      }),
    ),
    quality: T.Optional(
      T.Integer({
        minimum: 1,
        maximum: 100,
        description:
          "jpg/webp quality (default 90); pdf: store pages as JPEGs of this quality (default lossless)",
      }),
    ),
    optimize: T.Optional(
      T.Union([T.Literal("speed"), T.Literal("size")], {
        description:
          "png only: the encoder's effort. speed: least CPU. size: fewer bytes for exactly the same pixels (more encoder effort, lossless palette when the image has at most 256 colours). Default: speed (size costs about 0.4 s of CPU for a 1200x630 PNG, against 6 ms). An output never changes once stored.",
      }),
    ),
    frame: T.Optional(T.String({ minLength: 1, maxLength: 64, description: "Default: the first frame" })),
    frames: T.Optional(
      T.Union(
        [
          T.Array(T.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100 }),
          T.Literal("all"),
        ],
        {
          description:
            'pdf only, not with frame: the frames to draw, one page each in this order (no repeats), or "all" (the template\'s order)',
        },
      ),
    ),
    dpi: T.Optional(
      T.Number({
        minimum: 10,
        maximum: 2400,
        description: "pdf only: frame pixels per inch, which set the page size (default 96: 1 px = 0.75 pt)",
      }),
    ),
    metadata: T.Optional(
      T.Record(T.String({ maxLength: 100 }), T.String({ maxLength: 1000 }), { maxProperties: 50 }),
    ),
    tags: T.Optional(T.Array(T.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    webhook_url: T.Optional(
      T.String({
        minLength: 1,
        maxLength: 2048,
        description:
          "An absolute http(s) URL whose host is public (not a loopback, private or link-local address, and resolving to a public one); else 422 invalid_webhook_url",
      }),
    ),
    wait: T.Optional(T.Union([T.Boolean(), T.Number({ minimum: 0, maximum: MAX_WAIT_S })])),
  },
  { title: "RenderRequest", additionalProperties: false },
);

/** `"wait": true | seconds` in the body, or `Prefer: wait=N` (RFC 7240); the body wins. */
function waitSeconds(bodyWait: boolean | number | undefined, prefer: string | undefined): number {
  if (bodyWait === true) return MAX_WAIT_S;
  if (typeof bodyWait === "number") return bodyWait;
  const match = /(?:^|[,;\s])wait=(\d+)/i.exec(prefer ?? "");
  return match?.[1] ? Math.min(Number(match[1]), MAX_WAIT_S) : 0;
}

/**
 * The render this request's first attempt accepted before its process died (it took over the
 * Idempotency-Key of that attempt): answering with it charges nothing twice. Null otherwise, also
 * when the first attempt died before accepting anything.
 */
async function resumedRender(deps: AppDeps, request: FastifyRequest): Promise<RenderRecord | null> {
  const resume = request.idempotencyResume;
  if (!resume) return null;
  const since = new Date(resume.since).toISOString();
  return deps.renders.findByIdempotencyKey(request.accountId, resume.key, since);
}

/** Accepts the render through the one render path (charged and on its way), or throws its API error. */
async function accept(
  deps: AppDeps,
  request: FastifyRequest,
  body: Static<typeof RenderRequestBody>,
  waiting: boolean,
): Promise<RenderRecord> {
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  return orThrow(
    await deps.renderService.submit(request.accountId, body, {
      waiting,
      requestId: request.id,
      ...(request.traceSpan ? { trace: request.traceSpan } : {}),
      ...(typeof key === "string" ? { idempotencyKey: key } : {}),
    }),
  );
}

export function registerRenderCreate(app: App, deps: AppDeps): void {
  app.post(
    "/v1/renders",
    {
      config: { idempotent: true },
      schema: {
        summary: "Render one image (asynchronous by default, or wait for it)",
        tags: ["renders"],
        body: RenderRequestBody,
        headers: T.Object({
          prefer: T.Optional(T.String({ description: PREFER_HEADER_SCHEMA.description })),
          "idempotency-key": T.Optional(T.String({ description: IDEMPOTENCY_KEY_HEADER_SCHEMA.description })),
        }),
        response: { 200: Job, 202: Job },
      },
    },
    async (request, reply) => {
      const body = request.body;
      // From here a failure may leave a charged render behind: a retry must find it, not charge again
      // (if nothing was created after all, the retry finds nothing and accepts as usual).
      request.idempotencyCreated = true;
      const wait = waitSeconds(body.wait, request.headers.prefer);
      const render = (await resumedRender(deps, request)) ?? (await accept(deps, request, body, wait > 0));
      request.renderId = render.id;
      reply.header("Location", `/v1/renders/${render.id}`);

      if (wait <= 0) return reply.code(202).send(await jobView(deps, request, render));
      if (body.wait === undefined) reply.header("Preference-Applied", `wait=${wait}`);
      const finished = await deps.renderService.wait(request.accountId, render.id, wait * 1000);
      if (!finished) {
        const current = await deps.renders.get(request.accountId, render.id);
        return reply.code(202).send(await jobView(deps, request, current ?? render));
      }
      const ended = finished.render;
      if (ended.status === "failed") {
        const failure = renderFailure(ended);
        throw new ApiError(failure.code, failure.message, failure.details);
      }
      return reply.code(200).send(await jobView(deps, request, ended, finished.asset));
    },
  );
}
