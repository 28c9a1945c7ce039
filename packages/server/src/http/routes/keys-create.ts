import { Type as T } from "@sinclair/typebox";
import { createApiKey } from "../../domain/accounts.ts";
import type { ApiKeyRecord } from "../../ports/account-store.ts";
import type { App, AppDeps } from "../app-types.ts";
import { orThrow } from "../failure.ts";

export const KeyView = T.Object(
  {
    id: T.String(),
    name: T.Union([T.String(), T.Null()]),
    prefix: T.String({ description: "First characters of the key" }),
    created_at: T.String(),
    last_used_at: T.Union([T.String(), T.Null()]),
    revoked_at: T.Union([T.String(), T.Null()]),
  },
  { title: "ApiKey" },
);

/** A key as the API shows it: never the secret, only its prefix. */
export function keyView(
  k: Pick<ApiKeyRecord, "id" | "name" | "prefix" | "createdAt" | "lastUsedAt" | "revokedAt">,
) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
    revoked_at: k.revokedAt,
  };
}

export function registerKeysCreate(app: App, deps: AppDeps): void {
  app.post(
    "/v1/keys",
    {
      schema: {
        summary: "Create an API key; the secret is in this response only",
        tags: ["keys"],
        body: T.Object({ name: T.Optional(T.String({ maxLength: 200 })) }, { additionalProperties: false }),
        response: { 201: T.Composite([KeyView, T.Object({ key: T.String({ description: "sk_live_…" }) })]) },
      },
    },
    async (request, reply) => {
      const key = orThrow(await createApiKey(deps, request.accountId, request.body.name ?? null));
      reply.header("Cache-Control", "no-store");
      return reply
        .code(201)
        .send({ ...keyView({ ...key, lastUsedAt: null, revokedAt: null }), key: key.secret });
    },
  );
}
