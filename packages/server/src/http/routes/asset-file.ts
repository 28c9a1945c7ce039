import { Readable } from "node:stream";
import { Type as T } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AssetRecord } from "../../ports/asset-store.ts";
import type { ByteRange } from "../../ports/blob-store.ts";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import { etagMatches } from "../etag.ts";
import { notFound } from "../failure.ts";
import { fileHeaders } from "../file-headers.ts";
import { EXT_BY_TYPE } from "../views.ts";

/**
 * Sends an asset's bytes with its type, length and ETag (and fileHeaders: nosniff, a sandbox, a
 * download for what is not a raster image); answers 304 to a matching If-None-Match, and a single
 * byte range (`Range: bytes=…`, RFC 9110 section 14) with 206 and `Content-Range`, or 416 when it
 * lies outside the file. The bytes are streamed from the blob store as the client reads them (a
 * client that stops reading holds a socket and a read of 64 KiB, never the file); `hot`, when the
 * caller has the bytes in memory already (the on-demand cache's small outputs), is sent instead.
 */
export async function sendAsset(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  asset: AssetRecord,
  cacheControl: string,
  hot?: Uint8Array | null,
) {
  reply.header("Cache-Control", cacheControl);
  reply.header("ETag", asset.etag);
  reply.header("Accept-Ranges", "bytes");
  fileHeaders(reply, asset);
  if (etagMatches(request.headers["if-none-match"], asset.etag)) return reply.code(304).send();
  const size = hot ? hot.byteLength : asset.byteSize;
  const range = requestedRange(request, asset.etag, size);
  if (range === "unsatisfiable") {
    throw new ApiError(
      "range_not_satisfiable",
      `The range is outside the file's ${size} bytes.`,
      { size },
      { "Content-Range": `bytes */${size}` },
    );
  }
  reply.header("Content-Type", asset.contentType);
  if (range) {
    reply.code(206);
    reply.header("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
  }
  const length = range ? range.end - range.start + 1 : size;
  if (hot) {
    const part = range ? hot.subarray(range.start, range.end + 1) : hot;
    reply.header("Content-Length", length);
    return reply.send(Buffer.from(part.buffer, part.byteOffset, part.byteLength));
  }
  if (request.method === "HEAD") {
    // The headers only, with the length a GET would have: no read of the file (Fastify would read a
    // stream through to discard it). An empty stream keeps Fastify from setting Content-Length: 0.
    reply.header("Content-Length", length);
    return reply.send(Readable.from([]));
  }
  const opened = await deps.blobs.open(asset.blobKey, range ?? undefined);
  if (!opened) throw notFound("asset");
  if (range && opened.size !== size) {
    // The range was resolved against the record's size, which is not the stored file's (never for
    // files Pictor wrote): a fault, logged.
    opened.stream.destroy();
    throw new Error(`asset ${asset.id}: the record says ${size} bytes, the stored file has ${opened.size}`);
  }
  reply.header("Content-Length", range ? length : opened.size);
  // A client that reads nothing for this long is dropped, closing the file (or the object store's
  // socket) it held; one that reads slowly keeps going.
  reply.raw.setTimeout(STALLED_DOWNLOAD_MS, () => reply.raw.destroy());
  return reply.send(opened.stream);
}

/** A download that has not moved for this long is closed (its client stopped reading). */
export const STALLED_DOWNLOAD_MS = 60_000;

/**
 * The one byte range a GET asks for, resolved against the file's size: null for the whole file (no
 * Range, one this server ignores as RFC 9110 allows: several ranges, another unit, bad syntax, or an
 * If-Range that no longer matches), or "unsatisfiable" (416).
 */
export function requestedRange(
  request: FastifyRequest,
  etag: string,
  size: number,
): ByteRange | "unsatisfiable" | null {
  const header = request.headers.range;
  if (typeof header !== "string" || (request.method !== "GET" && request.method !== "HEAD")) return null;
  // If-Range with a validator other than the current ETag: the whole (changed) file. Dates are not
  // validators here (the files are served with an ETag and no Last-Modified).
  const ifRange = request.headers["if-range"];
  if (typeof ifRange === "string" && ifRange.trim() !== etag) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    // The last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  // last < first is not a valid range (ignored); last past the end means up to the end.
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) };
}

/** The file routes' success answers (documented: every status a route gives is in the OpenAPI document). */
export const FileResponses = {
  200: {
    description: "The file's bytes, with its Content-Type, Content-Length, ETag and Accept-Ranges: bytes",
    content: Object.fromEntries(
      Object.keys(EXT_BY_TYPE).map((type) => [type, { schema: { type: "string", format: "binary" } }]),
    ),
  },
  206: {
    description:
      "One byte range of the file (Range: bytes=first-last, first- or -suffix), with Content-Range; several ranges, or an If-Range other than the ETag, get the whole file (200). A range outside the file is 416 range_not_satisfiable with Content-Range: bytes */size",
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
      // No API key, so not under the per-key API limit: the download limits per client address and
      // per owning account apply instead (download-limits.ts).
      config: { public: true, rateLimit: false },
      schema: {
        summary: "Permanent asset URL: no API key; the 128-bit token is the capability; cacheable forever",
        description:
          "Streams the file; one byte range (206) on request. Downloads are rate limited per client address and per account that owns the file: 429 rate_limited with Retry-After.",
        tags: ["files"],
        security: [],
        params: T.Object({ file: T.String({ maxLength: 100 }) }),
        response: FileResponses,
      },
    },
    async (request, reply) => {
      deps.downloadLimits.takeIp(request);
      const match = /^([0-9a-f]{32})\.([a-z0-9]{2,5})$/.exec(request.params.file);
      const asset = match?.[1] ? await deps.assets.getByToken(match[1]) : null;
      if (!match || !matchFile(request.params.file, asset, match[2] ?? "")) throw notFound("asset");
      deps.downloadLimits.takeKeyOrThrow(`acct:${asset.accountId}`);
      return sendAsset(deps, request, reply, asset, "public, max-age=31536000, immutable");
    },
  );
}
