import { Type as T } from "@sinclair/typebox";
import type { FastifyReply } from "fastify";
import { createOnDemandImages, type OnDemandError, type OnDemandImage } from "../../app/on-demand-images.ts";
import { parseQuery } from "../../domain/image-urls/canonical.ts";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError, type ApiErrorCode, STATUS_BY_CODE } from "../errors.ts";
import { fileHeaders } from "../file-headers.ts";
import { TokenBuckets } from "../plugins/token-bucket-store.ts";
import { MAX_PATH_PARAM_LENGTH } from "../schemas.ts";
import { FileResponses, sendAsset } from "./asset-file.ts";

/** How long a browser or CDN may keep an unpinned URL's image: republishing reaches viewers within it. */
export const UNPINNED_MAX_AGE_S = 3600;
const YEAR_S = 31_536_000;

let errorImage: Promise<Buffer> | null = null;
/** `fallback=image`: a small neutral grey PNG (1200x630 is what og:image asks; 120x63 keeps it tiny). */
const fallbackPng = () => {
  // sharp is loaded the first time a placeholder is drawn, not at the API thread's start.
  errorImage ??= import("sharp").then(({ default: sharp }) =>
    sharp({ create: { width: 120, height: 63, channels: 3, background: "#e5e7eb" } })
      .png()
      .toBuffer(),
  );
  return errorImage;
};

function cacheControl(image: OnDemandImage, nowMs: number): string {
  const left = image.expires === null ? Number.POSITIVE_INFINITY : image.expires - Math.floor(nowMs / 1000);
  if (image.pinned && left >= YEAR_S) return `public, max-age=${YEAR_S}, immutable`;
  return `public, max-age=${Math.max(0, Math.min(image.pinned ? YEAR_S : UNPINNED_MAX_AGE_S, left))}`;
}

async function sendError(reply: FastifyReply, error: OnDemandError) {
  const code = error.code as ApiErrorCode;
  const headers: Record<string, string> = error.retryAfter ? { "Retry-After": String(error.retryAfter) } : {};
  reply.header("Cache-Control", "no-store");
  if (!error.fallbackImage) throw new ApiError(code, error.message, error.details, headers);
  // <img> contexts: a placeholder with the same status; the code travels in a header.
  reply.headers({ ...headers, "Pictor-Error": code, "Content-Type": "image/png" });
  fileHeaders(reply, { contentType: "image/png", name: "error.png" });
  return reply.code(STATUS_BY_CODE[code]).send(await fallbackPng());
}

/**
 * `GET /i/:key/:template.:ext?…&sig=…`: a signed on-demand image URL. Public (the
 * signature is the capability) and not under the per-key rate limit: cache hits are cheap, misses are
 * limited per account by the domain.
 */
export function registerImageUrl(app: App, deps: AppDeps): void {
  const config = deps.onDemand;
  if (!config) return;
  const buckets = new TokenBuckets();
  const window = Math.round((config.missesBurst / config.missesPerSecond) * 1000);
  const images = createOnDemandImages({
    ...deps,
    imageUrls: config.imageUrls,
    maxBytes: config.cacheMaxBytes,
    missWaitMs: config.missWaitMs,
    caches: config.caches,
    takeMiss: (accountId) => {
      const taken = buckets.take(`acct:${accountId}`, config.missesBurst, window);
      return taken.taken
        ? { ok: true }
        : { ok: false, retryAfter: Math.max(1, Math.ceil(taken.nextTokenIn / 1000)) };
    },
    takeDownload: (keyId) => {
      const taken = deps.downloadLimits.takeKey(`usk:${keyId}`);
      return taken.ok ? taken : { ok: false, retryAfter: taken.retryAfter };
    },
  });

  app.get(
    "/i/:key/:file",
    {
      config: { public: true, rateLimit: false },
      schema: {
        summary:
          "Signed on-demand image URL: renders a published template from query parameters once, then serves it from the render cache",
        description: [
          "Path: /i/<url-signing key id (usk_…)>/<template key or id>.<png|jpg|webp|gif|mp4> (gif and mp4: an animated frame, a Pictor extension). No API key: the signature is the capability.",
          "Query: one parameter per slot (text; colour as %23RRGGBB or RRGGBB; image as an http(s) URL, fetched through the SSRF guard, or an asset id / asset_url of the account), and optionally frame, scale (1 to 4), v (pin a published template version), expires (Unix seconds), fallback=image (errors answer a small PNG), and sig.",
          "Signing: take every parameter except sig, decode names and values (+ is a space), encode each again as UTF-8 with every byte except A-Z a-z 0-9 - . _ ~ written %XX (uppercase hex), sort by encoded name, join name=value with &. The string to sign is /i/<key id>/<template>.<ext>?<that query> (path parts encoded the same way). sig is the lowercase hex HMAC-SHA256 of it keyed with the secret (ussec_…); the previous secret of a rotation verifies until its grace period ends. Test vectors: docs/on-demand-urls.md; signImageUrl() in @pictor/client and `pictor url` implement it.",
          "Cache: the first request renders (like a waiting render) and charges ceil(scale²) credits; identical requests meanwhile wait for that render; later ones are served from the render cache free (Cache-Status: pictor; hit), with a strong ETag (If-None-Match → 304) and Cache-Control public, max-age=3600 (with v: max-age=31536000, immutable; never past expires). Outputs are assets in renders/<template>/; the least recently used are evicted beyond PICTOR_IMAGE_CACHE_MAX_BYTES.",
          "Downloads: large outputs are streamed from storage; one byte range on request (206, Accept-Ranges: bytes; outside the file 416).",
          "Errors (JSON, no-store, nothing charged): 403 forbidden (reason signature_missing, signature_invalid or expired), 400 invalid_request / invalid_scale, 404 not_found, 422 template_not_published / unknown_slot / image_out_of_folder, 402 insufficient_credits, 422 image_fetch_failed (refunded), 429 rate_limited (cache misses per account, downloads per URL-signing key and per client address; Retry-After), 503 unavailable.",
        ].join("\n\n"),
        tags: ["image urls"],
        security: [],
        params: T.Object({
          key: T.String({ maxLength: 100 }),
          file: T.String({ maxLength: MAX_PATH_PARAM_LENGTH }),
        }),
        response: FileResponses,
      },
    },
    async (request, reply) => {
      deps.downloadLimits.takeIp(request);
      const url = request.raw.url ?? "";
      const q = url.indexOf("?");
      const parsed = parseQuery(q === -1 ? "" : url.slice(q + 1));
      if (!parsed.ok) {
        throw new ApiError("invalid_request", parsed.message, {
          errors: [{ path: "query", message: parsed.message }],
        });
      }
      const file = /^(.+)\.([A-Za-z0-9]+)$/.exec(request.params.file);
      if (!file?.[1] || !file[2]) {
        throw new ApiError("invalid_request", "The path ends in <template>.<png|jpg|webp|gif|mp4>.", {
          errors: [{ path: "path", message: "No extension." }],
        });
      }
      const result = await images.serve({
        keyId: request.params.key,
        template: file[1],
        ext: file[2],
        params: parsed.params,
        sig: parsed.sig,
      });
      if (!result.ok) return sendError(reply, result);
      deps.metrics?.imageUrl(result.cache, result.asset.byteSize);
      const now = deps.clock.now().getTime();
      // RFC 9211: whether this answer came from the render cache.
      reply.header(
        "Cache-Status",
        result.cache === "hit"
          ? "pictor; hit"
          : `pictor; fwd=miss; stored${result.cache === "collapsed" ? "; collapsed" : ""}`,
      );
      // ETag, If-None-Match (304), Range (206 / 416), streamed unless the bytes are in memory already.
      return sendAsset(deps, request, reply, result.asset, cacheControl(result, now), result.bytes);
    },
  );
}
