import { Type as T } from "@sinclair/typebox";
import { findOwnedAsset, namesAssetId, ownedAssets } from "../../domain/render-request.ts";
import { MAX_OUTPUT_PIXELS } from "../../domain/scale.ts";
import { OutboundError, type SafeFetch } from "../../ports/safe-fetch.ts";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import { createWeightedGate } from "../weighted-gate.ts";

const FETCH_TIMEOUT_MS = 10_000;

/**
 * Output pixels prepared at once (32 MP: 128 MB of RGBA); more wait their turn. One request may ask
 * for up to 256 MP, and sharp works on the libuv pool that serves files and DNS lookups: unbounded,
 * a few large requests took gigabytes and held every asset download up for seconds.
 */
const PREPARE_PIXELS_AT_ONCE = 32_000_000;
/** Prepares one account may have waiting; more are 429 (an editor asks for one per image layer). */
const MAX_WAITING_PER_ACCOUNT = 32;

const PrepareBody = T.Object(
  {
    src: T.String({ minLength: 1, maxLength: 2048, description: "asset://ast_…, ast_…, or an http(s) URL" }),
    // The engine's device box: frame size x scale, at most 8000 x 4 on a side.
    width: T.Integer({ minimum: 1, maximum: 32_000 }),
    height: T.Integer({ minimum: 1, maximum: 32_000 }),
    fit: T.Union([T.Literal("cover"), T.Literal("contain"), T.Literal("fill")]),
    focal: T.Object(
      { x: T.Number({ minimum: 0, maximum: 1 }), y: T.Number({ minimum: 0, maximum: 1 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const Binary = T.Unsafe<Buffer>({ type: "string", format: "binary" });

/** serve.ts passes the full SafeFetch; AppDeps types only `check`, so narrow at run time. */
function fetcherOf(deps: AppDeps): SafeFetch["fetch"] | null {
  const candidate = (deps.safeFetch as Partial<SafeFetch>).fetch;
  return typeof candidate === "function" ? candidate.bind(deps.safeFetch) : null;
}

// The render package (and sharp under it) is loaded on the editor's first image, not at the API
// thread's start (docs/deploy.md, "Memory").
const renderNode = () => import("@pictor/render-node");

async function loadSource(deps: AppDeps, accountId: string, src: string): Promise<Uint8Array> {
  // Only the caller's own assets: another account's id is "no such asset", never its pixels. A
  // permanent asset URL that is not one of them is fetched like any URL, as a render would.
  const asset = await findOwnedAsset(src, ownedAssets(deps.assets, accountId), { references: true });
  if (asset || namesAssetId(src, { references: true })) {
    const bytes = asset ? await deps.blobs.get(asset.blobKey) : null;
    if (!bytes) throw new ApiError("image_fetch_failed", `No asset '${src.slice(0, 100)}'.`, { path: "src" });
    return bytes;
  }
  if (!/^https?:\/\//i.test(src)) {
    throw new ApiError("invalid_request", "src must be an asset reference or an http(s) URL.", {
      errors: [{ path: "src", message: "Not an asset reference or http(s) URL." }],
    });
  }
  const fetch = fetcherOf(deps);
  if (!fetch)
    throw new ApiError("image_fetch_failed", "This server cannot fetch image URLs.", { path: "src" });
  try {
    const { DEFAULT_IMAGE_LIMITS } = await renderNode();
    const res = await fetch(src, { maxBytes: DEFAULT_IMAGE_LIMITS.maxBytes, timeoutMs: FETCH_TIMEOUT_MS });
    if (res.status < 200 || res.status > 299) {
      throw new ApiError("image_fetch_failed", `Fetching the image returned HTTP ${res.status}.`, {
        path: "src",
      });
    }
    return res.body;
  } catch (error) {
    if (error instanceof OutboundError) {
      throw new ApiError("image_fetch_failed", error.describe("the image"), {
        path: "src",
      });
    }
    throw error;
  }
}

/**
 * The editor's image pixels: the same sharp pipeline (prepareImage) the render workers use, for the
 * exact device box the engine asked for, so the browser never decodes an image itself and its canvas
 * matches API output. Answers straight RGBA (width x height x 4 bytes).
 */
export function registerEditorPrepareImage(app: App, deps: AppDeps): void {
  const gate = createWeightedGate(PREPARE_PIXELS_AT_ONCE);
  const waitingByAccount = new Map<string, number>();
  app.post(
    "/v1/editor/prepare-image",
    {
      // A template with many images asks for one per layer and scale; the client caches them.
      config: { rateLimit: { max: 400, timeWindow: 10_000 } },
      schema: {
        summary: "Editor: an image prepared for an exact device box, as raw straight RGBA",
        tags: ["editor"],
        body: PrepareBody,
        response: {
          200: {
            description:
              "Straight RGBA, width × height × 4 bytes; the size in X-Image-Width and X-Image-Height, X-Image-Upscaled 1 when enlarged",
            content: { "application/octet-stream": { schema: Binary } },
          },
        },
      },
    },
    async (request, reply) => {
      const { src, width, height, fit, focal } = request.body;
      // No render draws a larger box, so the editor never needs one (and it would be gigabytes).
      if (width * height > MAX_OUTPUT_PIXELS) {
        throw new ApiError("invalid_request", `A ${width}x${height} box is larger than any render draws.`, {
          errors: [
            { path: "width", message: `width x height over ${MAX_OUTPUT_PIXELS / 1_000_000} megapixels` },
          ],
        });
      }
      const { ImageInvalidError, ImageTooLargeError, prepareImage } = await renderNode();
      const account = request.accountId;
      const waiting = waitingByAccount.get(account) ?? 0;
      if (waiting >= MAX_WAITING_PER_ACCOUNT) {
        throw new ApiError(
          "rate_limited",
          `${waiting} images of this account are being prepared; retry shortly.`,
          {},
          { "Retry-After": "1" },
        );
      }
      waitingByAccount.set(account, waiting + 1);
      try {
        const bytes = await loadSource(deps, account, src);
        const image = await gate.run(width * height, () =>
          prepareImage(bytes, { width, height, fit, focal }, { slot: null, src }),
        );
        reply.header("Content-Type", "application/octet-stream");
        reply.header("X-Image-Width", String(image.width));
        reply.header("X-Image-Height", String(image.height));
        reply.header("X-Image-Upscaled", image.upscaled ? "1" : "0");
        reply.header("Cache-Control", "private, max-age=3600");
        return reply.send(Buffer.from(image.rgba.buffer, image.rgba.byteOffset, image.rgba.byteLength));
      } catch (error) {
        if (error instanceof ImageInvalidError || error instanceof ImageTooLargeError) {
          throw new ApiError("image_invalid", error.message, { path: "src" });
        }
        throw error;
      } finally {
        const left = (waitingByAccount.get(account) ?? 1) - 1;
        if (left > 0) waitingByAccount.set(account, left);
        else waitingByAccount.delete(account);
      }
    },
  );
}
