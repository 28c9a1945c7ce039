import { newWebhookSecret } from "../../domain/ids.ts";
import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";
import { WEBHOOK_SECRET_GRACE_MS, WebhookSecretView, webhookSecretView } from "./webhook-secret.ts";

export function registerWebhookSecretRotate(app: App, deps: AppDeps): void {
  app.post(
    "/v1/webhook-secret/rotate",
    {
      schema: {
        summary: "Issue a new webhook secret; the previous one stays valid for a grace period",
        tags: ["webhooks"],
        response: { 200: WebhookSecretView },
      },
    },
    async (request, reply) => {
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + WEBHOOK_SECRET_GRACE_MS).toISOString();
      const rotated = await deps.webhookSecrets.rotateWebhookSecret(
        request.accountId,
        newWebhookSecret(),
        expiresAt,
      );
      if (!rotated) throw notFound("account");
      const secrets = await deps.webhookSecrets.webhookSecrets(request.accountId, now.toISOString());
      if (!secrets) throw notFound("account");
      reply.header("Cache-Control", "no-store");
      return webhookSecretView(secrets);
    },
  );
}
