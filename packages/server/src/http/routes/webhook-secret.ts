import { Type as T } from "@sinclair/typebox";
import type { WebhookSecrets } from "../../ports/account-store.ts";
import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";

/**
 * How long the replaced secret stays valid after a rotation. A callback's signature is made once,
 * before its first attempt, and resent unchanged on every retry (docs/webhooks.md); the retry
 * schedule spans about 76 h (+10 % jitter), so receivers must accept the previous secret for
 * longer than that. 7 days leaves room for Retry-After postponements.
 */
export const WEBHOOK_SECRET_GRACE_MS = 7 * 24 * 3_600_000;

export const WebhookSecretView = T.Object(
  {
    secret: T.String({ description: "whsec_…: signs every callback first attempted from now on" }),
    previous_secret: T.Optional(T.String({ description: "Still valid until previous_expires_at" })),
    previous_expires_at: T.Optional(T.String({ format: "date-time" })),
  },
  { title: "WebhookSecret" },
);

export function webhookSecretView(secrets: WebhookSecrets) {
  return secrets.previous
    ? {
        secret: secrets.secret,
        previous_secret: secrets.previous.secret,
        previous_expires_at: secrets.previous.expiresAt,
      }
    : { secret: secrets.secret };
}

export function registerWebhookSecret(app: App, deps: AppDeps): void {
  app.get(
    "/v1/webhook-secret",
    {
      schema: {
        summary: "The account's HMAC secret for verifying callbacks (and the previous one during a rotation)",
        tags: ["webhooks"],
        response: { 200: WebhookSecretView },
      },
    },
    async (request, reply) => {
      const secrets = await deps.webhookSecrets.webhookSecrets(
        request.accountId,
        deps.clock.now().toISOString(),
      );
      if (!secrets) throw notFound("account");
      reply.header("Cache-Control", "no-store");
      return webhookSecretView(secrets);
    },
  );
}
