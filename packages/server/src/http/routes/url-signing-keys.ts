import { Type as T } from "@sinclair/typebox";
import {
  createUrlSigningKey,
  DEFAULT_ROTATION_GRACE_S,
  MAX_ROTATION_GRACE_S,
  rotateUrlSigningKey,
} from "../../domain/image-urls/keys.ts";
import type { UrlSigningKey } from "../../ports/image-url-store.ts";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import { notFound, orThrow } from "../failure.ts";
import { IdParams } from "../schemas.ts";

export const UrlSigningKeyView = T.Object({
  id: T.String({ description: "usk_…: named in the path of every URL signed with this key" }),
  name: T.Union([T.String(), T.Null()]),
  secret_prefix: T.String({ description: "First characters of the current secret" }),
  created_at: T.String({ format: "date-time" }),
  rotated_at: T.Union([T.String({ format: "date-time" }), T.Null()]),
  previous_expires_at: T.Union([T.String({ format: "date-time" }), T.Null()], {
    description: "Until then URLs signed with the secret the last rotation replaced still verify",
  }),
});
const WithSecret = T.Composite([
  UrlSigningKeyView,
  T.Object({ secret: T.String({ description: "ussec_…: the HMAC key; shown only in this response" }) }),
]);

export function urlSigningKeyView(key: UrlSigningKey) {
  return {
    id: key.id,
    name: key.name,
    secret_prefix: key.secret.slice(0, 12),
    created_at: key.createdAt,
    rotated_at: key.rotatedAt,
    previous_expires_at: key.previous?.expiresAt ?? null,
  };
}

function onDemandOf(deps: AppDeps) {
  if (!deps.onDemand) throw new ApiError("not_found", "On-demand image URLs are not enabled on this server.");
  return { imageUrls: deps.onDemand.imageUrls, clock: deps.clock };
}

/** Create, list, rotate and delete the account's URL-signing keys (docs/on-demand-urls.md). */
export function registerUrlSigningKeys(app: App, deps: AppDeps): void {
  app.post(
    "/v1/url-signing-keys",
    {
      schema: {
        summary: "Create a URL-signing key for on-demand image URLs; its secret is in this response only",
        tags: ["image urls"],
        body: T.Object({ name: T.Optional(T.String({ maxLength: 200 })) }, { additionalProperties: false }),
        response: { 201: WithSecret },
      },
    },
    async (request, reply) => {
      const key = orThrow(
        await createUrlSigningKey(onDemandOf(deps), request.accountId, request.body.name ?? null),
      );
      reply.header("Cache-Control", "no-store");
      return reply.code(201).send({ ...urlSigningKeyView(key), secret: key.secret });
    },
  );

  app.get(
    "/v1/url-signing-keys",
    {
      schema: {
        summary: "The account's URL-signing keys (never their secrets), oldest first",
        tags: ["image urls"],
        response: { 200: T.Object({ data: T.Array(UrlSigningKeyView), next_cursor: T.Null() }) },
      },
    },
    async (request) => {
      const { imageUrls, clock } = onDemandOf(deps);
      const keys = await imageUrls.listKeys(request.accountId, clock.now().toISOString());
      return { data: keys.map(urlSigningKeyView), next_cursor: null };
    },
  );

  app.post(
    "/v1/url-signing-keys/:id/rotate",
    {
      // No body at all means every default.
      preValidation: async (request) => {
        (request as { body: unknown }).body ??= {};
      },
      schema: {
        summary:
          "Replace a key's secret; URLs signed with the replaced one keep working for grace_period_seconds (default 7 days)",
        tags: ["image urls"],
        params: IdParams,
        body: T.Object(
          {
            grace_period_seconds: T.Optional(
              T.Integer({ minimum: 0, maximum: MAX_ROTATION_GRACE_S, default: DEFAULT_ROTATION_GRACE_S }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: WithSecret },
      },
    },
    async (request, reply) => {
      const grace = request.body.grace_period_seconds ?? DEFAULT_ROTATION_GRACE_S;
      const key = await rotateUrlSigningKey(onDemandOf(deps), request.accountId, request.params.id, grace);
      if (!key) throw notFound(`URL-signing key '${request.params.id}'`);
      reply.header("Cache-Control", "no-store");
      return { ...urlSigningKeyView(key), secret: key.secret };
    },
  );

  app.delete(
    "/v1/url-signing-keys/:id",
    {
      schema: {
        summary: "Delete a URL-signing key: every URL signed with it answers 403 from now on",
        tags: ["image urls"],
        params: IdParams,
        response: { 200: T.Object({ id: T.String(), deleted: T.Literal(true) }) },
      },
    },
    async (request) => {
      const { imageUrls } = onDemandOf(deps);
      if (!(await imageUrls.deleteKey(request.accountId, request.params.id))) {
        throw notFound(`URL-signing key '${request.params.id}'`);
      }
      return { id: request.params.id, deleted: true as const };
    },
  );
}
