import { Type as T } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AssetRecord } from "../../ports/asset-store.ts";
import type { App, AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";
import { fileHeaders } from "../file-headers.ts";
import { EXT_BY_TYPE } from "../views.ts";

/**
 * Sends an asset's bytes with its type, length and ETag (and fileHeaders: nosniff, a sandbox, a
 * download for what is not a raster image); answers 304 to a matching If-None-Match.
 */
export async function sendAsset(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  asset: AssetRecord,
  cacheControl: string,
) {
  reply.header("Cache-Control", cacheControl);
  reply.header("ETag", asset.etag);
  fileHeaders(reply, asset);
  if (request.headers["if-none-match"] === asset.etag) return reply.code(304).send();
  const bytes = await deps.blobs.get(asset.blobKey);
  if (!bytes) throw notFound("asset");
  reply.header("Content-Type", asset.contentType);
  reply.header("Content-Length", bytes.byteLength);
  return reply.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** The file routes' success answers (documented: every status a route gives is in the OpenAPI document). */
export const FileResponses = {
  200: {
    description: "The file's bytes, with its Content-Type, Content-Length and ETag",
    content: Object.fromEntries(
      Object.keys(EXT_BY_TYPE).map((type) => [type, { schema: { type: "string", format: "binary" } }]),
    ),
  },
  304: T.Null({ description: "Not modified: If-None-Match equals the ETag" }),
};

/** Splits `<name>.<ext>` and checks the extension is the asset's own. */
export function matchFile(file: string, asset: AssetRecord | null, ext: string): asset is AssetRecord {
  return asset !== null && EXT_BY_TYPE[asset.contentType] === ext && file.length > 0;
}

export function registerAssetFile(app: App, deps: AppDeps): void {
  app.get(
    "/a/:file",
    {
      // Links are handed to browsers and CDNs: one viewer IP may fetch many images. The bytes are
      // immutable and cheap to serve, so the per-key API rate limit does not apply.
      config: { public: true, rateLimit: false },
      schema: {
        summary: "Permanent asset URL: no API key; the 128-bit token is the capability; cacheable forever",
        tags: ["files"],
        security: [],
        params: T.Object({ file: T.String({ maxLength: 100 }) }),
        response: FileResponses,
      },
    },
    async (request, reply) => {
      const match = /^([0-9a-f]{32})\.([a-z]{2,5})$/.exec(request.params.file);
      const asset = match?.[1] ? await deps.assets.getByToken(match[1]) : null;
      if (!match || !matchFile(request.params.file, asset, match[2] ?? "")) throw notFound("asset");
      return sendAsset(deps, request, reply, asset, "public, max-age=31536000, immutable");
    },
  );
}
