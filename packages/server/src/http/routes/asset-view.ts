import { Type as T } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { LibraryAsset } from "../../ports/asset-library.ts";
import type { AppDeps } from "../app-types.ts";
import { baseUrl } from "../base-url.ts";
import { ApiError, type FieldError } from "../errors.ts";
import { assetUrl } from "../views.ts";

/** Limits shared with render requests' `tags` and `metadata` (render-create.ts). */
export const Tags = T.Array(T.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });
export const Metadata = T.Record(T.String({ minLength: 1, maxLength: 100 }), T.String({ maxLength: 1000 }), {
  maxProperties: 50,
});

/** A folder as requests give it; its rules are checked by normalizeFolder (domain/assets/folders.ts). */
export const FolderField = T.String({
  maxLength: 700,
  description:
    "Library folder, `a/b/` (slashes around it optional): at most 10 levels, each 1 to 64 letters, digits, spaces, `.`, `_` or `-`, starting with a letter or digit and not ending with a space; else 400 invalid_request",
});

export const Asset = T.Object(
  {
    id: T.String({ description: "ast_…" }),
    folder: T.String({ description: '`a/b/` form; the root is ""' }),
    name: T.String(),
    content_type: T.String(),
    width: T.Union([T.Integer(), T.Null()]),
    height: T.Union([T.Integer(), T.Null()]),
    bytes: T.Integer(),
    sha256: T.Union([T.String(), T.Null()], {
      description:
        "Of the stored bytes; null only for starter images and for render outputs stored before outputs were hashed",
    }),
    tags: T.Array(T.String()),
    metadata: T.Record(T.String(), T.String()),
    font: T.Union([T.Object({ family: T.String(), weight: T.Integer(), style: T.String() }), T.Null()]),
    render_id: T.Union([T.String(), T.Null()]),
    asset_url: T.String({ description: "Permanent, public, cacheable forever" }),
    created_at: T.String({ format: "date-time" }),
  },
  { title: "Asset", description: "An asset of the library" },
);

export function assetView(deps: AppDeps, request: FastifyRequest, a: LibraryAsset) {
  return {
    id: a.id,
    folder: a.folder,
    name: a.name,
    content_type: a.contentType,
    width: a.width,
    height: a.height,
    bytes: a.byteSize,
    sha256: a.sha256,
    tags: a.tags,
    metadata: a.metadata,
    font: a.font,
    render_id: a.renderId,
    asset_url: assetUrl(baseUrl(request, deps.publicUrl), a),
    created_at: a.createdAt,
  };
}

/** Multipart fields are text: `tags` is a JSON array or comma-separated, `metadata` a JSON object. */
export function parseTextTags(text: string | undefined): string[] | FieldError | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  let tags: unknown;
  if (trimmed.startsWith("[")) {
    try {
      tags = JSON.parse(trimmed);
    } catch {
      return { path: "tags", message: "Not a JSON array of strings." };
    }
  } else {
    tags = trimmed === "" ? [] : trimmed.split(",").map((t) => t.trim());
  }
  if (
    !Array.isArray(tags) ||
    tags.length > 50 ||
    !tags.every((t) => typeof t === "string" && t.length >= 1 && t.length <= 100)
  ) {
    return { path: "tags", message: "At most 50 tags of 1 to 100 characters." };
  }
  return tags as string[];
}

export function parseTextMetadata(text: string | undefined): Record<string, string> | FieldError | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { path: "metadata", message: "Not a JSON object of strings." };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { path: "metadata", message: "Not a JSON object of strings." };
  }
  const entries = Object.entries(value);
  if (
    entries.length > 50 ||
    !entries.every(
      ([k, v]) =>
        k.length >= 1 && k.length <= 100 && k !== "__proto__" && typeof v === "string" && v.length <= 1000,
    )
  ) {
    return {
      path: "metadata",
      message: "At most 50 keys of 1 to 100 characters with string values of at most 1000.",
    };
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

export const isFieldError = (value: unknown): value is FieldError =>
  typeof value === "object" && value !== null && "path" in value && "message" in value;

export const invalidField = (error: FieldError) =>
  new ApiError("invalid_request", error.message, { errors: [error] });
