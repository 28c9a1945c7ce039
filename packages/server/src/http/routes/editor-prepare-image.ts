import type { Readable } from "node:stream";
import { Type as T } from "@sinclair/typebox";
import { findOwnedAsset, namesAssetId, ownedAssets } from "../../domain/render-request.ts";
import { MAX_OUTPUT_PIXELS } from "../../domain/scale.ts";
import { OutboundError, type SafeFetch } from "../../ports/safe-fetch.ts";
import type { App, AppDeps, PrepareImageBudget } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import { TokenBuckets } from "../plugins/token-bucket-store.ts";
import { createWeightedGate } from "../weighted-gate.ts";
import { STALLED_DOWNLOAD_MS } from "./asset-file.ts";

const FETCH_TIMEOUT_MS = 10_000;

/**
 * Output pixels prepared at once (32 MP: 128 MB of RGBA); more wait their turn. One request may ask
 * for up to 256 MP, and sharp works on the libuv pool that serves files and DNS lookups: unbounded,
 * a few large requests took gigabytes and held every asset download up for seconds.
 */
const PREPARE_PIXELS_AT_ONCE = 32_000_000;
/** Prepares one account may have unanswered; more are 429 (an editor asks for one per image layer). */
const MAX_WAITING_PER_ACCOUNT = 32;
/**
 * The most pixels one answer holds (64 MB of RGBA), whatever box is asked: a larger box is answered
 * downscaled to fit (X-Image-Downscaled: 1), which the editor enlarges for its canvas. An 8000 px
 * frame at scale 4 would otherwise be one gigabyte per call.
 */
export const MAX_ANSWER_PIXELS = 16_000_000;
/**
 * Bytes of answers the process may have in flight, all accounts together, when the memory plan does
 * not say (PrepareImageBudget.bytesInFlight): being prepared, or sent and not yet read by their
 * clients (a client that does not read holds its answer in the server's memory). Beyond, 429 until
 * clients read or are dropped as stalled.
 */
const DEFAULT_BYTES_IN_FLIGHT = 256 * 1024 * 1024;
/** One account may hold this part of the process's bytes in flight (and always one answer). */
const ACCOUNT_SHARE_OF_BYTES_IN_FLIGHT = 1 / 4;
/**
 * Megapixels of answers an account may ask for at once, and per second after (`pictor serve`'s
 * defaults, PICTOR_PREPARE_MEGAPIXELS_*): sixteen full-size answers, then one a second. An editor asks
 * for a few megapixels when it opens a template, and caches what it got.
 */
export const DEFAULT_PREPARE_BUDGET: PrepareImageBudget = { megapixelsBurst: 256, megapixelsPerSecond: 16 };
/** Requests per account, whatever their size: 400 at once, then 40 a second. */
const PREPARE_REQUESTS_BURST = 400;
const PREPARE_REQUESTS_WINDOW_MS = 10_000;

/** The box an answer is prepared for: the one asked, or that box shrunk to MAX_ANSWER_PIXELS, same aspect. */
export function answerBox(width: number, height: number): { width: number; height: number } {
  if (width * height <= MAX_ANSWER_PIXELS) return { width, height };
  const factor = Math.sqrt(MAX_ANSWER_PIXELS / (width * height));
  return {
    width: Math.max(1, Math.min(width, Math.floor(width * factor))),
    height: Math.max(1, Math.min(height, Math.floor(height * factor))),
  };
}

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
  const inFlight = new Map<string, { count: number; bytes: number }>();
  const megapixels = new TokenBuckets();
  const budget = deps.prepareImageBudget ?? DEFAULT_PREPARE_BUDGET;
  const processBytes = budget.bytesInFlight ?? DEFAULT_BYTES_IN_FLIGHT;
  const accountBytes = Math.floor(processBytes * ACCOUNT_SHARE_OF_BYTES_IN_FLIGHT);
  /** Bytes in flight, all accounts together. */
  let totalBytes = 0;
  const megapixelsWindowMs = (budget.megapixelsBurst / budget.megapixelsPerSecond) * 1000;
  const tooMany = (message: string, retryAfter: number) =>
    new ApiError("rate_limited", message, {}, { "Retry-After": String(retryAfter) });
  app.post(
    "/v1/editor/prepare-image",
    {
      // A template with many images asks for one per layer and scale; the client caches them. Per
      // account, not per key: an account's keys share its budget.
      config: {
        rateLimit: {
          max: PREPARE_REQUESTS_BURST,
          timeWindow: PREPARE_REQUESTS_WINDOW_MS,
          keyGenerator: (request) => `acct:${request.accountId}`,
        },
      },
      schema: {
        summary: "Editor: an image prepared for an exact device box, as raw straight RGBA",
        description: `At most ${MAX_ANSWER_PIXELS / 1_000_000} megapixels per answer: a larger box is answered downscaled to fit (same aspect, X-Image-Downscaled: 1). Per account: ${PREPARE_REQUESTS_BURST} requests at once then ${(PREPARE_REQUESTS_BURST * 1000) / PREPARE_REQUESTS_WINDOW_MS} a second, ${budget.megapixelsBurst} megapixels of answers at once then ${budget.megapixelsPerSecond} a second, ${MAX_WAITING_PER_ACCOUNT} answers and ${Math.round(accountBytes / 1_000_000)} MB (or one answer) unanswered or unread at once, ${Math.round(processBytes / 1_000_000)} MB for all accounts together; beyond, 429 rate_limited with Retry-After.`,
        tags: ["editor"],
        body: PrepareBody,
        response: {
          200: {
            description:
              "Straight RGBA, width × height × 4 bytes; the size in X-Image-Width and X-Image-Height (the box asked, or that box downscaled to 16 megapixels, then X-Image-Downscaled 1), X-Image-Upscaled 1 when the source was enlarged",
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
      const box = answerBox(width, height);
      const pixels = box.width * box.height;
      const account = request.accountId;
      const held = inFlight.get(account) ?? { count: 0, bytes: 0 };
      if (held.count >= MAX_WAITING_PER_ACCOUNT) {
        throw tooMany(`${held.count} images of this account are being prepared or sent; retry shortly.`, 1);
      }
      if (held.count > 0 && held.bytes + pixels * 4 > accountBytes) {
        throw tooMany(
          `${held.bytes} bytes of this account's prepared images are not yet read by its clients; retry shortly.`,
          1,
        );
      }
      if (totalBytes > 0 && totalBytes + pixels * 4 > processBytes) {
        throw tooMany(
          "The server is preparing or sending as many editor images as its memory allows; retry shortly.",
          1,
        );
      }
      const taken = megapixels.take(
        `acct:${account}`,
        budget.megapixelsBurst,
        megapixelsWindowMs,
        pixels / 1_000_000,
      );
      if (!taken.taken) {
        const wait = Math.max(1, Math.ceil(taken.nextTokenIn / 1000));
        throw tooMany(
          `This account asked for more than ${budget.megapixelsPerSecond} megapixels of images a second; retry in ${wait} s.`,
          wait,
        );
      }
      // Held until the answer has left (or the connection closed), not only until it is made.
      held.count++;
      held.bytes += pixels * 4;
      totalBytes += pixels * 4;
      inFlight.set(account, held);
      reply.raw.once("close", () => {
        held.count--;
        held.bytes -= pixels * 4;
        totalBytes -= pixels * 4;
        if (held.count === 0) inFlight.delete(account);
      });
      const { ImageInvalidError, ImageTooLargeError, prepareImage } = await renderNode();
      try {
        const bytes = await loadSource(deps, account, src);
        const target = { ...box, fit, focal };
        const image = await gate.run(pixels, async () => {
          if (!deps.editorImages) return prepareImage(bytes, target, { slot: null, src });
          const prepared = await deps.editorImages.prepare(account, bytes, target, src);
          if (prepared.ok) return prepared;
          if (prepared.code === "image_invalid")
            throw new ApiError("image_invalid", prepared.message, { path: "src" });
          throw new Error(`editor image: ${prepared.message}`);
        });
        const rgba =
          image.rgba instanceof Uint8Array
            ? Buffer.from(image.rgba.buffer, image.rgba.byteOffset, image.rgba.byteLength)
            : image.rgba;
        if (reply.raw.destroyed) {
          // The client left while its image was made: nothing to send, the file closes now.
          if (!Buffer.isBuffer(rgba)) (rgba as Readable).destroy();
          return reply;
        }
        reply.header("Content-Type", "application/octet-stream");
        reply.header("Content-Length", String(image.width * image.height * 4));
        reply.header("X-Image-Width", String(image.width));
        reply.header("X-Image-Height", String(image.height));
        reply.header("X-Image-Upscaled", image.upscaled ? "1" : "0");
        reply.header("X-Image-Downscaled", pixels < width * height ? "1" : "0");
        reply.header("Cache-Control", "private, max-age=3600");
        // A client that reads nothing for this long is dropped, freeing its answer.
        reply.raw.setTimeout(STALLED_DOWNLOAD_MS, () => reply.raw.destroy());
        // Streamed from the image's file as the client reads (the render threads' and the
        // editor-image process's answers): a client that never reads holds a file, not the image.
        return reply.send(rgba);
      } catch (error) {
        if (error instanceof ImageInvalidError || error instanceof ImageTooLargeError) {
          throw new ApiError("image_invalid", error.message, { path: "src" });
        }
        throw error;
      }
    },
  );
}
