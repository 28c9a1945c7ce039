import { Type as T } from "@sinclair/typebox";
import type { DeliveryLog } from "../../ports/webhook-outbox.ts";
import type { App, AppDeps } from "../app-types.ts";
import { IdParams } from "../schemas.ts";
import { findRenderOr404 } from "./find-or-404.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const DeliveryLogView = T.Object(
  {
    render_id: T.String(),
    event_id: T.Union([T.String(), T.Null()]),
    url: T.Union([T.String(), T.Null()]),
    state: T.Union([
      T.Literal("pending"),
      T.Literal("delivered"),
      T.Literal("failed"),
      T.Null({ description: "No callback (no webhook_url, not completed yet, or failed render)" }),
    ]),
    created_at: T.Union([T.String({ format: "date-time" }), T.Null()]),
    next_attempt_at: T.Union([T.String({ format: "date-time" }), T.Null()]),
    attempts: T.Array(
      T.Object(
        {
          attempt: T.Integer({ description: "1-based, across redeliveries" }),
          at: T.String({ format: "date-time" }),
          status_code: T.Union([T.Integer(), T.Null()]),
          error: T.Union([T.String(), T.Null()]),
          duration_ms: T.Integer(),
        },
        { title: "DeliveryAttempt" },
      ),
    ),
  },
  { title: "DeliveryLog" },
);

export function deliveryLogView(renderId: string, webhookUrl: string | null, log: DeliveryLog | null) {
  return {
    render_id: renderId,
    event_id: log?.event_id ?? null,
    url: log?.url ?? webhookUrl,
    state: log?.state ?? null,
    created_at: iso(log?.created_at ?? null),
    next_attempt_at: log?.state === "pending" ? iso(log.next_attempt_at) : null,
    attempts: (log?.attempts ?? []).map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
  };
}

export function registerRenderDeliveries(app: App, deps: AppDeps): void {
  app.get(
    "/v1/renders/:id/deliveries",
    {
      schema: {
        summary: "Delivery log of a render's completion callback",
        tags: ["webhooks"],
        params: IdParams,
        response: { 200: DeliveryLogView },
      },
    },
    async (request) => {
      const render = await findRenderOr404(deps, request.accountId, request.params.id);
      return deliveryLogView(render.id, render.webhookUrl, await deps.webhooks.listAttempts(render.id));
    },
  );
}
