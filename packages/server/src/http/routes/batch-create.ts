import { Type as T } from "@sinclair/typebox";
import { errorBody, MAX_BATCH_ROWS } from "../../domain/batches.ts";
import { malformedWebhookUrl } from "../../domain/renders.ts";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import { orThrow, toApiError } from "../failure.ts";
import { IDEMPOTENCY_KEY_HEADER } from "../plugins/idempotency.ts";
import { IDEMPOTENCY_KEY_HEADER_SCHEMA } from "../plugins/openapi.ts";
import { BATCH_BODY_LIMIT } from "../plugins/server-options.ts";
import { jobView } from "../views.ts";
import { checkBatchRow } from "./batch-row-shape.ts";
import { RenderRequestBody } from "./render-create.ts";

export const BatchBody = T.Object(
  {
    webhook_url: T.Optional(RenderRequestBody.properties.webhook_url),
    metadata: T.Optional(RenderRequestBody.properties.metadata),
    // Rows are checked one by one in the handler (checkBatchRow): a malformed row fails alone.
    renders: T.Array(
      T.Unknown({
        title: "BatchRow",
        description:
          "A POST /v1/renders body without `wait`, and optionally `idempotency_key`: the row's own key (1 to 255 printable ASCII characters without spaces, kept 24 h; the same key and row again answer with the render accepted under it, `replayed: true`, nothing charged; with another row, that row is refused with `idempotency_key_reused`)",
      }),
      {
        minItems: 1,
        description: `1 to ${MAX_BATCH_ROWS} rows; more is 413 payload_too_large`,
      },
    ),
  },
  { title: "BatchRequest", additionalProperties: false },
);

export const BatchRowResult = T.Unknown({
  title: "BatchRowResult",
  description:
    "{ index, …the job object } for an accepted row (with `replayed: true` when its idempotency_key named a render accepted earlier: that render, not charged again), or { index, error: { code, message, … } } for a refused one",
});

export function registerBatchCreate(app: App, deps: AppDeps): void {
  app.post(
    "/v1/renders/batch",
    {
      bodyLimit: BATCH_BODY_LIMIT,
      config: { idempotent: true },
      // Before the schema's checks: a 5,000-row batch is too large (413), not a malformed one.
      preValidation: async (request) => {
        const rows = (request.body as { renders?: unknown } | null)?.renders;
        if (Array.isArray(rows) && rows.length > MAX_BATCH_ROWS) {
          throw new ApiError(
            "payload_too_large",
            `A batch holds at most ${MAX_BATCH_ROWS} rows; this one has ${rows.length}.`,
            { max_rows: MAX_BATCH_ROWS },
          );
        }
      },
      schema: {
        summary: "Render many images; each row is validated and charged on its own, in order",
        tags: ["renders"],
        body: BatchBody,
        headers: T.Object({
          "idempotency-key": T.Optional(T.String({ description: IDEMPOTENCY_KEY_HEADER_SCHEMA.description })),
        }),
        response: {
          202: T.Object({ batch_id: T.String({ description: "bat_…" }), renders: T.Array(BatchRowResult) }),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      // The batch's own webhook_url is part of the body: malformed, the whole batch is refused (400).
      const badWebhook = malformedWebhookUrl(body.webhook_url);
      if (badWebhook) throw toApiError(badWebhook);
      const key = request.headers[IDEMPOTENCY_KEY_HEADER];
      // The batch this request's first attempt began before its process died (it took over that
      // attempt's Idempotency-Key): completed, not begun again, so no row is charged twice.
      const resume = request.idempotencyResume
        ? await deps.batches.findByIdempotencyKey(
            request.accountId,
            request.idempotencyResume.key,
            new Date(request.idempotencyResume.since).toISOString(),
          )
        : null;
      // From here a failure may leave charged rows behind: a retry must complete this batch.
      request.idempotencyCreated = true;
      const { batch, outcomes } = orThrow(
        await deps.renderService.submitBatch(
          request.accountId,
          {
            ...(body.webhook_url !== undefined ? { webhook_url: body.webhook_url } : {}),
            ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
            renders: body.renders.map(checkBatchRow),
          },
          {
            requestId: request.id,
            ...(request.traceSpan ? { trace: request.traceSpan } : {}),
            ...(typeof key === "string" ? { idempotencyKey: key } : {}),
            ...(resume ? { resume } : {}),
          },
        ),
      );
      const renders = [];
      for (const outcome of outcomes) {
        renders.push(
          "render" in outcome
            ? {
                index: outcome.index,
                ...(await jobView(deps, request, outcome.render)),
                ...(outcome.replayed ? { replayed: true } : {}),
              }
            : { index: outcome.index, error: errorBody(outcome.error) },
        );
      }
      reply.header("Location", `/v1/batches/${batch.id}`);
      return reply.code(202).send({ batch_id: batch.id, renders });
    },
  );
}
