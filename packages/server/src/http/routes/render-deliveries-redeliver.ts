import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import { IdParams } from "../schemas.ts";
import { findRenderOr404 } from "./find-or-404.ts";
import { DeliveryLogView, deliveryLogView } from "./render-deliveries.ts";

export function registerRenderRedeliver(app: App, deps: AppDeps): void {
  app.post(
    "/v1/renders/:id/redeliver",
    {
      schema: {
        summary:
          "Send the completion callback again: same bytes, signed with the current secret, fresh schedule",
        tags: ["webhooks"],
        params: IdParams,
        response: { 202: DeliveryLogView },
      },
    },
    async (request, reply) => {
      const render = await findRenderOr404(deps, request.accountId, request.params.id);
      const restarted = await deps.webhooks.redeliver(render.id, deps.clock.now().getTime());
      if (!restarted) {
        throw new ApiError(
          "invalid_request",
          "This render has no completion callback (no webhook_url, not completed yet, or failed).",
        );
      }
      const log = await deps.webhooks.listAttempts(render.id);
      return reply.code(202).send(deliveryLogView(render.id, render.webhookUrl, log));
    },
  );
}
