import multipart from "@fastify/multipart";
import { Type as T } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  type UploadDeps,
  type UploadInput,
  type UploadOutcome,
  uploadAsset,
} from "../../domain/assets/upload.ts";
import { OutboundError } from "../../ports/safe-fetch.ts";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import {
  Asset,
  assetView,
  FolderField,
  invalidField,
  isFieldError,
  Metadata,
  parseTextMetadata,
  parseTextTags,
  Tags,
} from "./asset-view.ts";

/** Same as a fetched input image: 25 MiB. Fonts are checked after decoding. */
const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
const TEXT_FIELDS = new Set(["folder", "name", "tags", "metadata"]);

export const ImportBody = T.Object(
  {
    url: T.String({ minLength: 1, maxLength: 2048, description: "http(s); fetched through the SSRF guard" }),
    folder: T.Optional(FolderField),
    name: T.Optional(T.String({ minLength: 1, maxLength: 200 })),
    tags: T.Optional(Tags),
    metadata: T.Optional(Metadata),
  },
  { additionalProperties: false },
);

/**
 * The multipart form, for the OpenAPI document only: the parts are read and checked one by one in
 * the handler (a body schema would make Fastify validate a body the multipart parser never sets).
 */
const UploadForm = T.Object(
  {
    file: T.String({
      contentMediaType: "application/octet-stream",
      description: "The image or font bytes; its filename names the asset unless `name` is given.",
    }),
    folder: T.Optional(FolderField),
    name: T.Optional(T.String({ minLength: 1, maxLength: 200 })),
    tags: T.Optional(T.String({ description: "A JSON array of strings, or comma-separated." })),
    metadata: T.Optional(T.String({ description: "A JSON object of string values." })),
  },
  { additionalProperties: false },
);

async function answer(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, outcome: UploadOutcome) {
  if (!outcome.ok) {
    if (outcome.code === "storage_quota_exceeded") {
      throw new ApiError(outcome.code, outcome.message, {
        quota_bytes: outcome.quotaBytes,
        used_bytes: outcome.usedBytes,
        file_bytes: outcome.fileBytes,
      });
    }
    throw new ApiError(outcome.code, outcome.message, {
      errors: [{ path: outcome.path, message: outcome.message }],
    });
  }
  // 201 for new bytes; 200 with the existing asset when the account already has these bytes.
  return reply.code(outcome.created ? 201 : 200).send(assetView(deps, request, outcome.asset));
}

/**
 * `POST /v1/assets` (multipart: one `file` part plus optional `folder`, `name`, `tags`, `metadata`
 * text fields) and `POST /v1/assets/import` (JSON with a `url`). Registered in their own scope so the
 * multipart parser exists only here; every other route stays JSON-only (415 otherwise).
 */
export function registerAssetsUpload(app: App, deps: AppDeps): void {
  app.register(async (scope: App) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 8, fieldSize: 64 * 1024, parts: 10 },
    });

    scope.post(
      "/v1/assets",
      {
        schema: {
          summary:
            "Upload an image (PNG, JPEG, WebP, GIF) or a font (TTF, OTF, WOFF, WOFF2) as multipart/form-data",
          description:
            "Parts: `file` (required), `folder`, `name`, `tags` (JSON array or comma-separated), `metadata` (JSON object). Identical bytes already in the account answer 200 with the existing asset. A file that would take the account's stored files (uploads and render outputs) over its storage quota is 413 storage_quota_exceeded with quota_bytes, used_bytes and file_bytes; nothing is stored.",
          tags: ["assets"],
          consumes: ["multipart/form-data"],
          response: { 200: Asset, 201: Asset },
        },
        config: {
          swaggerTransform: ({ schema, url }) => ({ url, schema: { ...schema, body: UploadForm } }),
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new ApiError(
            "unsupported_media_type",
            "Send the file as multipart/form-data (or JSON with a url to POST /v1/assets/import).",
          );
        }
        const fields: Record<string, string> = {};
        let file: { bytes: Uint8Array; filename: string } | null = null;
        try {
          for await (const part of request.parts()) {
            if (part.type === "file") {
              if (part.fieldname !== "file" || file) {
                await part.toBuffer();
                throw invalidField({
                  path: part.fieldname,
                  message: "Send exactly one file part, named 'file'.",
                });
              }
              file = { bytes: new Uint8Array(await part.toBuffer()), filename: part.filename };
            } else if (TEXT_FIELDS.has(part.fieldname)) {
              fields[part.fieldname] = String(part.value);
            } else {
              throw invalidField({ path: part.fieldname, message: "Unknown field." });
            }
          }
        } catch (error) {
          if (error instanceof ApiError) throw error;
          if ((error as { code?: unknown }).code === "FST_REQ_FILE_TOO_LARGE") {
            throw new ApiError(
              "payload_too_large",
              `The file is over the ${MAX_UPLOAD_BYTES}-byte upload limit.`,
            );
          }
          // Anything else thrown while reading the parts is the body's fault: the plugin's errors have
          // FST_ codes, the parser's own (a body cut short, a malformed part header) have none.
          throw new ApiError("invalid_request", `Malformed multipart body: ${(error as Error).message}.`);
        }
        if (!file) throw invalidField({ path: "file", message: "A part named 'file' is required." });
        const tags = parseTextTags(fields.tags);
        if (isFieldError(tags)) throw invalidField(tags);
        const metadata = parseTextMetadata(fields.metadata);
        if (isFieldError(metadata)) throw invalidField(metadata);
        const input: UploadInput = {
          accountId: request.accountId,
          bytes: file.bytes,
          filename: fields.name ?? file.filename,
          folder: fields.folder,
          tags,
          metadata,
        };
        return answer(deps, request, reply, await uploadAsset(uploadDeps(deps), input));
      },
    );

    scope.post(
      "/v1/assets/import",
      {
        schema: {
          summary: "Add an image or font to the library from a public URL",
          description:
            "Over the account's storage quota: 413 storage_quota_exceeded (quota_bytes, used_bytes, file_bytes), nothing stored.",
          tags: ["assets"],
          body: ImportBody,
          response: { 200: Asset, 201: Asset },
        },
      },
      async (request, reply) => {
        const { url, ...rest } = request.body;
        const fetchUrl = deps.safeFetch.fetch;
        if (!fetchUrl) throw new ApiError("unavailable", "Imports from a URL are not configured.");
        let bytes: Uint8Array;
        try {
          const res = await fetchUrl(url, { maxBytes: MAX_UPLOAD_BYTES, timeoutMs: FETCH_TIMEOUT_MS });
          if (res.status < 200 || res.status > 299) {
            throw new ApiError("image_fetch_failed", `Fetching the URL returned HTTP ${res.status}.`);
          }
          bytes = res.body;
        } catch (error) {
          if (error instanceof OutboundError) {
            throw new ApiError("image_fetch_failed", error.describe("the URL"));
          }
          throw error;
        }
        const input: UploadInput = {
          accountId: request.accountId,
          bytes,
          filename: rest.name ?? safeUrlPath(url),
          folder: rest.folder,
          tags: rest.tags,
          metadata: rest.metadata,
        };
        return answer(deps, request, reply, await uploadAsset(uploadDeps(deps), input));
      },
    );
  });
}

const uploadDeps = (deps: AppDeps): UploadDeps => ({
  library: deps.assetLibrary,
  blobs: deps.blobs,
  clock: deps.clock,
  inspector: deps.uploadInspector,
  quotaBytes: deps.storageQuotaBytes ?? null,
});

function safeUrlPath(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return undefined;
  }
}
