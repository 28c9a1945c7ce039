import type { AssetCursor, AssetQuery, CreatedRange } from "../../ports/asset-library.ts";
import { fail, type Result } from "../failure.ts";
import { normalizeFolder } from "./folders.ts";

/** The body of `POST /v1/assets/query` after schema validation (shapes checked, values not yet). */
export interface AssetQueryBody {
  tags?: string[] | { all?: string[]; any?: string[] };
  metadata?: Record<string, string>;
  folder?: string;
  recursive?: boolean;
  content_type?: string | string[];
  created?: CreatedRange;
  limit?: number;
  cursor?: string;
}

export const DEFAULT_QUERY_LIMIT = 50;

/** Turns a validated body into an AssetQuery: bare tag array = "all of", folders normalised, timestamps canonical. */
export function parseAssetQuery(body: AssetQueryBody): Result<AssetQuery> {
  const tags = body.tags === undefined ? {} : Array.isArray(body.tags) ? { all: body.tags } : body.tags;
  let folder: string | null = null;
  if (body.folder !== undefined) {
    const normalized = normalizeFolder(body.folder, "folder");
    if (!normalized.ok) return normalized;
    folder = normalized.value;
  }
  const created: CreatedRange = {};
  for (const op of ["gt", "gte", "lt", "lte"] as const) {
    const value = body.created?.[op];
    if (value === undefined) continue;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      const message = "Not an ISO-8601 timestamp (e.g. 2026-05-01T00:00:00Z).";
      return fail("invalid_request", message, { errors: [{ path: `created.${op}`, message }] });
    }
    // Stored timestamps are Date#toISOString() output, so string comparison is time comparison.
    created[op] = new Date(ms).toISOString();
  }
  let cursor: AssetCursor | null = null;
  if (body.cursor !== undefined) {
    cursor = decodeCursor(body.cursor);
    if (!cursor) {
      const message = "Not a cursor returned by this endpoint.";
      return fail("invalid_request", message, { errors: [{ path: "cursor", message }] });
    }
  }
  const contentTypes =
    body.content_type === undefined
      ? []
      : Array.isArray(body.content_type)
        ? body.content_type
        : [body.content_type];
  return {
    ok: true,
    value: {
      tagsAll: [...new Set(tags.all ?? [])],
      tagsAny: [...new Set(tags.any ?? [])],
      metadata: body.metadata ?? {},
      folder,
      recursive: body.recursive ?? false,
      contentTypes: contentTypes.map((t) => t.toLowerCase()),
      created,
      limit: body.limit ?? DEFAULT_QUERY_LIMIT,
      cursor,
    },
  };
}

/** Opaque to callers; base64url of `created_at` and id, the keyset of the (created_at DESC, id DESC) order. */
export function encodeCursor(cursor: AssetCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString("base64url");
}

export function decodeCursor(text: string): AssetCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string" &&
      !Number.isNaN(Date.parse(value[0]))
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {}
  return null;
}
