import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";

export function registerWebhookSecret(app: App, deps: AppDeps): void {
  app.get(
    "/v1/webhook-secret",
    {
      schema: {
        summary: "The account's HMAC secret for verifying callbacks",
        tags: ["webhooks"],
        response: { 200: T.Object({ secret: T.String({ description: "whsec_…" }) }) },
      },
    },
    async (request, reply) => {
      const secret = await deps.accounts.webhookSecret(request.accountId);
      if (!secret) throw notFound("account");
      reply.header("Cache-Control", "no-store");
      return { secret };
    },
  );
}
