import { signImageUrl } from "@pictor/client";
import { Type as T } from "@sinclair/typebox";
import { RESERVED_PARAMS } from "../../app/on-demand-images.ts";
import {
  createUrlSigningKey,
  DEFAULT_ROTATION_GRACE_S,
  MAX_ROTATION_GRACE_S,
  rotateUrlSigningKey,
} from "../../domain/image-urls/keys.ts";
import type { UrlSigningKey } from "../../ports/image-url-store.ts";
import type { App, AppDeps } from "../app-types.ts";
import { baseUrl } from "../base-url.ts";
import { ApiError } from "../errors.ts";
import { notFound, orThrow } from "../failure.ts";
import { IdParams } from "../schemas.ts";

export const UrlSigningKeyView = T.Object(
  {
    id: T.String({ description: "usk_…: named in the path of every URL signed with this key" }),
    name: T.Union([T.String(), T.Null()]),
    secret_prefix: T.String({ description: "First characters of the current secret" }),
    created_at: T.String({ format: "date-time" }),
    rotated_at: T.Union([T.String({ format: "date-time" }), T.Null()]),
    previous_expires_at: T.Union([T.String({ format: "date-time" }), T.Null()], {
      description: "Until then URLs signed with the secret the last rotation replaced still verify",
    }),
  },
  { title: "UrlSigningKey" },
);
const WithSecret = T.Composite(
  [
    UrlSigningKeyView,
    T.Object({ secret: T.String({ description: "ussec_…: the HMAC key; shown only in this response" }) }),
  ],
  { title: "UrlSigningKeyWithSecret" },
);

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

/** What a signed image URL asks for (docs/on-demand-urls.md); its signature is made with the key's secret. */
export const SignImageUrlBody = T.Object(
  {
    template: T.String({ minLength: 1, maxLength: 100, description: "Key or id of a published template" }),
    format: T.Optional(
      T.Union([T.Literal("png"), T.Literal("jpg"), T.Literal("webp"), T.Literal("gif"), T.Literal("mp4")], {
        default: "png",
        description: "gif and mp4 (a Pictor extension) draw an animated frame's motion",
      }),
    ),
    values: T.Optional(
      T.Record(T.String({ minLength: 1, maxLength: 64 }), T.String({ maxLength: 2048 }), {
        maxProperties: 200,
        description: "Slot values by slot name: text, colour (#RRGGBB), image URL or asset id",
      }),
    ),
    frame: T.Optional(T.String({ minLength: 1, maxLength: 64 })),
    scale: T.Optional(
      T.Number({ minimum: 1, maximum: 4, description: "Costs ceil(scale²) on the first request only" }),
    ),
    version: T.Optional(
      T.Integer({ minimum: 1, description: "Pin a published version: the URL's image never changes" }),
    ),
    expires: T.Optional(
      T.Integer({
        minimum: 1,
        maximum: 999_999_999_999,
        description: "Unix seconds after which the URL answers 403",
      }),
    ),
    fallback: T.Optional(
      T.Literal("image", { description: "Errors answer a small placeholder PNG instead of JSON" }),
    ),
  },
  { additionalProperties: false },
);

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

  app.post(
    "/v1/url-signing-keys/:id/sign",
    {
      schema: {
        summary:
          "Sign an on-demand image URL with one of the account's keys, here instead of where the secret is kept (for agents and tools that should not hold it)",
        tags: ["image urls"],
        params: IdParams,
        body: SignImageUrlBody,
        response: { 200: T.Object({ url: T.String({ description: "The absolute signed URL" }) }) },
      },
    },
    async (request) => {
      const { imageUrls, clock } = onDemandOf(deps);
      const key = await imageUrls.findKey(request.params.id, clock.now().toISOString());
      if (!key || key.accountId !== request.accountId)
        throw notFound(`URL-signing key '${request.params.id}'`);
      const { values, ...rest } = request.body;
      const reserved = Object.keys(values ?? {}).find((name) =>
        (RESERVED_PARAMS as readonly string[]).includes(name),
      );
      if (reserved !== undefined) {
        throw new ApiError(
          "invalid_request",
          `'${reserved}' is a reserved parameter of image URLs, not a slot.`,
          {
            errors: [{ path: `values.${reserved}`, message: "reserved parameter" }],
          },
        );
      }
      const url = await signImageUrl({
        ...rest,
        ...(values ? { values } : {}),
        baseUrl: baseUrl(request, deps.publicUrl),
        keyId: key.id,
        secret: key.secret,
      });
      return { url };
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
