import { createHash } from "node:crypto";
import { deleteAsset } from "../domain/assets/delete-asset.ts";
import type { SlotValue } from "../domain/document.ts";
import type { Failure } from "../domain/failure.ts";
import { canonicalPath, signatureMatches, stringToSign } from "../domain/image-urls/canonical.ts";
import { type Modification, ownedAssets, resolveModifications } from "../domain/render-request.ts";
import { renderFailure } from "../domain/renders.ts";
import { isValidScale } from "../domain/scale.ts";
import type { AssetLibrary } from "../ports/asset-library.ts";
import type { AssetRecord, AssetStore } from "../ports/asset-store.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { ImageUrlStore } from "../ports/image-url-store.ts";
import type { MemoCache } from "../ports/memo-cache.ts";
import type { FinishedRender } from "../ports/render-dispatcher.ts";
import type { RenderRecord, RenderStore } from "../ports/render-store.ts";
import type { TemplateStore } from "../ports/template-store.ts";
import type { RenderService } from "./render-service.ts";

/** Query parameters with a meaning of their own; every other parameter names a slot. */
export const RESERVED_PARAMS = ["frame", "scale", "v", "expires", "fallback", "sig"] as const;
/** .gif and .mp4 draw the frame's motion (an animated frame); .webp is a still. */
const FORMAT_BY_EXT = { png: "png", jpg: "jpeg", webp: "webp", gif: "gif", mp4: "mp4" } as const;
/** How long a render whose caller gave up is still waited for, to enter the cache when it ends. */
const LATE_WAIT_MS = 15 * 60_000;
/**
 * A render of the same URL (same cache key) accepted this recently is reused instead of charging
 * again: found by the idempotency key it is recorded under (IMAGE_URL_RENDER_KEY + cache key).
 */
const REUSE_RENDER_MS = 24 * 3600_000;
/** Prefix of the idempotency key an image URL's render is recorded under; no API caller's key has it. */
const IMAGE_URL_RENDER_KEY = "pictor-image-url:";

export type OnDemandErrorCode =
  | Failure["code"]
  | "forbidden"
  | "rate_limited"
  | "image_fetch_failed"
  | "image_invalid"
  | "internal_error"
  | "unavailable";

export interface OnDemandError {
  ok: false;
  code: OnDemandErrorCode;
  message: string;
  details?: Record<string, unknown>;
  /** Seconds, for 429 and 503. */
  retryAfter?: number;
  /** The signed URL asked for an image instead of a JSON error body (only once its signature held). */
  fallbackImage: boolean;
}

export interface OnDemandImage {
  ok: true;
  asset: AssetRecord;
  /**
   * The output's bytes when this process holds them in memory (small outputs, HOT_ITEM_MAX_BYTES);
   * null to stream them from the blob store. ETag, 304 and ranges are the HTTP side's (sendAsset).
   */
  bytes: Uint8Array | null;
  /** `hit`: served from the cache; `miss`: rendered for this request; `collapsed`: waited for another's render. */
  cache: "hit" | "miss" | "collapsed";
  /** The URL pins a template version (`v`): its bytes never change. */
  pinned: boolean;
  /** Unix seconds of the URL's `expires`, if any. */
  expires: number | null;
}

export interface ImageUrlRequest {
  keyId: string;
  template: string;
  ext: string;
  params: Map<string, string>;
  sig: string | null;
}

export interface OnDemandDeps {
  imageUrls: ImageUrlStore;
  templates: TemplateStore;
  assets: AssetStore;
  assetLibrary: AssetLibrary;
  blobs: BlobStore;
  renderService: Pick<RenderService, "submit" | "wait" | "waiting">;
  renders: Pick<RenderStore, "findByIdempotencyKey">;
  clock: Clock;
  /** Bytes one account's cached outputs may take; its least recently used beyond it are deleted. */
  maxBytes: number;
  /** How long a miss waits for its render before answering 503; the render still enters the cache. */
  missWaitMs: number;
  /**
   * What this process keeps in memory between requests (adapters/memory/lru-memo-cache.ts): parsed
   * published versions by `templateId:version`, and small outputs' bytes by blob key.
   */
  caches: {
    versions: MemoCache<NonNullable<Awaited<ReturnType<TemplateStore["version"]>>>>;
    outputs: MemoCache<Uint8Array>;
  };
  /** Takes one cache miss from the account's budget; false with the seconds until the next one. */
  takeMiss(accountId: string): { ok: true } | { ok: false; retryAfter: number };
  /**
   * Takes one download from the URL-signing key's budget, once its signature held (hits and misses
   * alike); false with the seconds until the next one. Absent: not limited.
   */
  takeDownload?(keyId: string): { ok: true } | { ok: false; retryAfter: number };
}

/** What a cache miss renders. */
interface RenderJobOf {
  templateId: string;
  version: number;
  frame: string;
  scale: number;
  format: (typeof FORMAT_BY_EXT)[keyof typeof FORMAT_BY_EXT];
  modifications: Modification[];
}

type Flight = Promise<
  { ok: true; asset: AssetRecord; bytes: Uint8Array | null } | Omit<OnDemandError, "fallbackImage">
>;

const refuse = (
  code: OnDemandErrorCode,
  message: string,
  extra: { details?: Record<string, unknown>; retryAfter?: number; fallbackImage?: boolean } = {},
): OnDemandError => ({
  ok: false,
  code,
  message,
  fallbackImage: extra.fallbackImage ?? false,
  ...(extra.details ? { details: extra.details } : {}),
  ...(extra.retryAfter !== undefined ? { retryAfter: extra.retryAfter } : {}),
});

/**
 * The render cache key: what the output depends on, nothing else (the URL's own spelling, expiry and
 * fallback do not): template id and version, frame, scale, format and the resolved slot values.
 */
export function cacheKeyOf(input: {
  templateId: string;
  version: number;
  frame: string;
  scale: number;
  format: string;
  values: Record<string, SlotValue>;
}): string {
  const values = Object.keys(input.values)
    .sort()
    .map((k) => [k, input.values[k]]);
  const text = JSON.stringify([
    input.templateId,
    input.version,
    input.frame,
    input.scale,
    input.format,
    values,
  ]);
  return createHash("sha256").update(text).digest("hex");
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Outputs up to this size are read whole and kept in the hot cache; larger ones are never read into
 * memory here: the route streams them from the blob store as its client reads.
 */
export const HOT_ITEM_MAX_BYTES = 1024 * 1024;
/** Uses of cached entries are written to the store at most this often (and before every eviction). */
const TOUCH_FLUSH_MS = 5_000;

/**
 * On-demand image URLs: verifies a signed URL, then answers from the render cache or renders
 * once (single flight per cache key in this process), charging scale² credits per render, never per hit.
 */
export function createOnDemandImages(deps: OnDemandDeps) {
  const flights = new Map<string, Flight>();
  let lastStamp = 0;
  // Strictly increasing in this process, so two uses in one millisecond still order for eviction.
  const stamp = () => {
    lastStamp = Math.max(lastStamp + 1, deps.clock.now().getTime());
    return lastStamp;
  };
  let evicting: Promise<void> = Promise.resolve();
  // Template versions are immutable: parsed once per process. Output bytes likewise, by blob key.
  const { versions, outputs: hot } = deps.caches;
  /** A small output's bytes (null: lost), or "stream" for a large one, which the route streams. */
  const readBytes = async (asset: AssetRecord): Promise<Uint8Array | "stream" | null> => {
    if (asset.byteSize > HOT_ITEM_MAX_BYTES) return "stream";
    const cached = hot.get(asset.blobKey);
    if (cached) return cached;
    const bytes = await deps.blobs.get(asset.blobKey);
    if (bytes) hot.set(asset.blobKey, bytes);
    return bytes;
  };
  // A hit records its use here; the uses reach the store in one go every few seconds and before
  // every eviction, so hits write nothing on their own path.
  const uses = new Map<string, { accountId: string; cacheKey: string; at: number }>();
  let lastFlush = 0;
  const flushUses = async () => {
    lastFlush = deps.clock.now().getTime();
    const pending = [...uses.values()];
    uses.clear();
    for (const use of pending) await deps.imageUrls.touchEntry(use.accountId, use.cacheKey, use.at);
  };
  const recordUse = (accountId: string, cacheKey: string) => {
    uses.set(`${accountId}:${cacheKey}`, { accountId, cacheKey, at: stamp() });
    if (deps.clock.now().getTime() - lastFlush >= TOUCH_FLUSH_MS) {
      evicting = evicting.then(flushUses).catch(() => {});
    }
  };

  /** The account's least recently used entries go until its entries fit its share of the cache. */
  async function evict(accountId: string, keep: string): Promise<void> {
    await flushUses();
    let total = await deps.imageUrls.totalBytes(accountId);
    while (total > deps.maxBytes) {
      const oldest = (await deps.imageUrls.oldestEntries(accountId, 32)).filter((e) => e.cacheKey !== keep);
      if (oldest.length === 0) return;
      for (const entry of oldest) {
        if (total <= deps.maxBytes) return;
        if (await deps.imageUrls.deleteEntry(entry.accountId, entry.cacheKey, entry.assetId)) {
          const asset = await deps.assets.get(entry.accountId, entry.assetId);
          if (asset) hot.delete(asset.blobKey);
          await deleteAsset(
            { library: deps.assetLibrary, blobs: deps.blobs },
            entry.accountId,
            entry.assetId,
          );
        }
        total -= entry.byteSize;
      }
      total = await deps.imageUrls.totalBytes(accountId);
    }
  }

  /** Enters a finished render's output in the cache; the failure a caller is told otherwise. */
  async function cacheFinished(
    accountId: string,
    cacheKey: string,
    job: RenderJobOf,
    finished: FinishedRender,
  ): Flight {
    const ended = finished.render;
    if (ended.status === "failed") return { ok: false, ...renderFailure(ended) };
    const asset = finished.asset ?? (ended.assetId ? await deps.assets.get(accountId, ended.assetId) : null);
    const bytes = asset ? await readBytes(asset) : null;
    if (!asset || !bytes) throw new Error(`render ${ended.id} completed without its output`);
    await deps.imageUrls.putEntry({
      accountId,
      cacheKey,
      assetId: asset.id,
      templateId: job.templateId,
      templateVersion: job.version,
      byteSize: asset.byteSize,
      lastUsedAt: stamp(),
      createdAt: deps.clock.now().toISOString(),
    });
    // One eviction at a time in this process; a failed one is retried by the next miss.
    evicting = evicting.then(() => evict(accountId, cacheKey)).catch(() => {});
    await evicting;
    return { ok: true, asset, bytes: bytes === "stream" ? null : bytes };
  }

  /**
   * A render its caller stopped waiting for (503 after missWaitMs) still enters the cache when it
   * finishes, so the caller's retry is a hit, not a second charge.
   */
  async function cacheWhenFinished(accountId: string, cacheKey: string, job: RenderJobOf, renderId: string) {
    const deadline = deps.clock.now().getTime() + LATE_WAIT_MS;
    // Once the service stops waiting (shutdown) every wait answers null at once: looping on those
    // would keep the event loop in microtasks for the 15 minutes and the process from ever stopping.
    // The render stays queued; a retry of its URL after the next start finds it.
    while (deps.renderService.waiting() && deps.clock.now().getTime() < deadline) {
      const finished = await deps.renderService.wait(accountId, renderId, deps.missWaitMs);
      if (finished) {
        await cacheFinished(accountId, cacheKey, job, finished);
        return;
      }
    }
  }

  async function renderOnce(accountId: string, cacheKey: string, job: RenderJobOf): Flight {
    // The render this URL already started (in this process or another, also one whose caller gave
    // up): waited for, not charged again. One that failed was refunded and is rendered anew.
    const idempotencyKey = `${IMAGE_URL_RENDER_KEY}${cacheKey}`;
    const since = new Date(deps.clock.now().getTime() - REUSE_RENDER_MS).toISOString();
    const earlier = await deps.renders.findByIdempotencyKey(accountId, idempotencyKey, since);
    // A completed one counts while its output exists (not deleted from the library since).
    const earlierOutput =
      earlier?.status === "completed" && earlier.assetId
        ? await deps.assets.get(accountId, earlier.assetId)
        : null;
    if (earlier && earlierOutput)
      return cacheFinished(accountId, cacheKey, job, { render: earlier, asset: earlierOutput });
    let render: RenderRecord;
    if (earlier && (earlier.status === "queued" || earlier.status === "rendering")) {
      render = earlier;
    } else {
      const accepted = await deps.renderService.submit(
        accountId,
        {
          template: job.templateId,
          modifications: job.modifications,
          scale: job.scale,
          format: job.format === "jpeg" ? "jpg" : job.format,
          frame: job.frame,
          metadata: { source: "image_url" },
        },
        { waiting: true, version: job.version, idempotencyKey, mode: "image_url" },
      );
      if (!accepted.ok) {
        return {
          ok: false,
          code: accepted.code,
          message: accepted.message,
          ...(accepted.details ? { details: accepted.details } : {}),
          ...(accepted.retryAfter !== undefined ? { retryAfter: accepted.retryAfter } : {}),
        };
      }
      render = accepted.value;
    }
    const finished = await deps.renderService.wait(accountId, render.id, deps.missWaitMs);
    if (!finished) {
      void cacheWhenFinished(accountId, cacheKey, job, render.id).catch(() => {});
      return {
        ok: false,
        code: "unavailable",
        message: "The render is taking longer than expected; retry shortly.",
        details: { render_id: render.id },
        retryAfter: 5,
      };
    }
    return cacheFinished(accountId, cacheKey, job, finished);
  }

  async function serve(req: ImageUrlRequest): Promise<OnDemandImage | OnDemandError> {
    const now = deps.clock.now();
    const forbidden = (message: string, reason: string) =>
      refuse("forbidden", message, { details: { reason } });
    // Signature first: nothing about the account or its templates is told to an unsigned request.
    if (req.sig === null) return forbidden("The URL carries no signature (sig).", "signature_missing");
    const key = await deps.imageUrls.findKey(req.keyId, now.toISOString());
    const text = stringToSign(canonicalPath(req.keyId, req.template, req.ext), req.params);
    const valid =
      key !== null &&
      (signatureMatches(key.secret, text, req.sig) ||
        (key.previous !== null && signatureMatches(key.previous.secret, text, req.sig)));
    if (!key || !valid) return forbidden("The URL's signature does not match.", "signature_invalid");
    const accountId = key.accountId;

    const fallbackParam = req.params.get("fallback");
    const fallbackImage = fallbackParam === "image";
    const bad = (code: OnDemandErrorCode, message: string, details?: Record<string, unknown>) =>
      refuse(code, message, { fallbackImage, ...(details ? { details } : {}) });
    const invalid = (path: string, message: string) =>
      bad("invalid_request", message, { errors: [{ path, message }] });
    if (fallbackParam !== undefined && !fallbackImage) {
      return invalid("fallback", "fallback must be 'image' (or left out for a JSON error body).");
    }
    // Counted once the signature held: a made-up URL naming the key cannot use up its budget.
    const download = deps.takeDownload?.(req.keyId) ?? { ok: true };
    if (!download.ok) {
      return refuse(
        "rate_limited",
        `Too many downloads for this URL-signing key; retry in ${download.retryAfter} s.`,
        {
          retryAfter: download.retryAfter,
          fallbackImage,
        },
      );
    }

    const expiresParam = req.params.get("expires");
    let expires: number | null = null;
    if (expiresParam !== undefined) {
      if (!/^\d{1,12}$/.test(expiresParam))
        return invalid("expires", "expires must be a Unix time in seconds.");
      expires = Number(expiresParam);
      if (expires * 1000 <= now.getTime()) {
        return refuse("forbidden", "This URL has expired.", {
          details: { reason: "expired", expired_at: new Date(expires * 1000).toISOString() },
          fallbackImage,
        });
      }
    }
    const format = FORMAT_BY_EXT[req.ext as keyof typeof FORMAT_BY_EXT];
    if (!format) return invalid("format", "The extension must be .png, .jpg, .webp, .gif or .mp4.");
    const scaleParam = req.params.get("scale");
    const scale =
      scaleParam === undefined ? 1 : /^\d+(\.\d+)?$/.test(scaleParam) ? Number(scaleParam) : Number.NaN;
    if (!isValidScale(scale)) return bad("invalid_scale", "scale must be a number from 1 to 4 inclusive.");
    const vParam = req.params.get("v");
    if (vParam !== undefined && !/^[1-9]\d{0,8}$/.test(vParam)) {
      return invalid("v", "v must be a published version number (1, 2, …).");
    }

    const template = await deps.templates.find(accountId, req.template);
    if (!template) return bad("not_found", `No template '${req.template}'.`);
    if (template.publishedVersion === null || template.archivedAt !== null) {
      return bad("template_not_published", `Template '${template.key}' is not published.`);
    }
    const versionNo = vParam === undefined ? template.publishedVersion : Number(vParam);
    const versionKey = `${template.id}:${versionNo}`;
    let version = versionNo <= template.publishedVersion ? versions.get(versionKey) : null;
    if (version === undefined) {
      version = await deps.templates.version(template.id, versionNo);
      if (version) versions.set(versionKey, version);
    }
    if (!version)
      return bad("not_found", `Template '${template.key}' has no published version ${versionNo}.`);
    const doc = version.document;
    const frameParam = req.params.get("frame");
    const frame = frameParam === undefined ? doc.frames[0] : doc.frames.find((f) => f.name === frameParam);
    if (!frame) return invalid("frame", `Template '${template.key}' has no frame '${frameParam}'.`);

    const modifications: Modification[] = [];
    for (const [name, value] of req.params) {
      if ((RESERVED_PARAMS as readonly string[]).includes(name)) continue;
      const slot = doc.slots.find((s) => s.name === name);
      if (!slot)
        return bad("unknown_slot", `Template '${template.key}' has no slot '${name}'.`, { slot: name });
      if (slot.type === "image") {
        if (value.length > 2048) return invalid(name, "An image value is at most 2048 characters.");
        modifications.push({ name, image_url: value });
      } else if (slot.type === "color") {
        const color = /^[0-9A-Fa-f]{6}$/.test(value) ? `#${value}` : value;
        if (!/^#[0-9A-Fa-f]{6}$/.test(color)) return invalid(name, "A colour is #RRGGBB (or RRGGBB).");
        modifications.push({ name, color });
      } else if (slot.type === "number") {
        // A URL carries text: a number slot's value is a decimal number (`72`, `-0.5`, `1e3`).
        const number = value.trim() === "" ? Number.NaN : Number(value);
        if (!Number.isFinite(number)) return invalid(name, `Slot '${name}' is a number slot: give a number.`);
        modifications.push({ name, number });
      } else if (slot.type === "date") {
        modifications.push({ name, date: value });
      } else if (slot.type === "list") {
        const items = jsonOrNull(value);
        if (!Array.isArray(items)) {
          return invalid(name, `Slot '${name}' is a list slot: give its items as a JSON array.`);
        }
        modifications.push({ name, items });
      } else {
        if (value.length > 10_000) return invalid(name, "A text is at most 10,000 characters.");
        modifications.push({ name, text: value });
      }
    }
    const values = await resolveModifications(doc, modifications, ownedAssets(deps.assets, accountId));
    if (!values.ok) return bad(values.code, values.message, values.details);

    const cacheKey = cacheKeyOf({
      templateId: template.id,
      version: version.version,
      frame: frame.name,
      scale,
      format,
      values: values.value,
    });
    const answer = (asset: AssetRecord, bytes: Uint8Array | null, cache: OnDemandImage["cache"]) => ({
      ok: true as const,
      asset,
      bytes,
      cache,
      pinned: vParam !== undefined,
      expires,
    });

    const entry = await deps.imageUrls.getEntry(accountId, cacheKey);
    if (entry) {
      const asset = await deps.assets.get(accountId, entry.assetId);
      const bytes = asset ? await readBytes(asset) : null;
      if (asset && bytes) {
        recordUse(accountId, cacheKey);
        return answer(asset, bytes === "stream" ? null : bytes, "hit");
      }
      // The asset was deleted from the library (or its bytes lost): render it again.
      await deps.imageUrls.deleteEntry(accountId, cacheKey, entry.assetId);
    }

    const flightKey = `${accountId}:${cacheKey}`;
    let flight = flights.get(flightKey);
    let cache: OnDemandImage["cache"] = "collapsed";
    if (!flight) {
      const allowed = deps.takeMiss(accountId);
      if (!allowed.ok) {
        return refuse("rate_limited", `Too many uncached image URLs; retry in ${allowed.retryAfter} s.`, {
          retryAfter: allowed.retryAfter,
          fallbackImage,
        });
      }
      cache = "miss";
      flight = renderOnce(accountId, cacheKey, {
        templateId: template.id,
        version: version.version,
        frame: frame.name,
        scale,
        format,
        modifications,
      }).finally(() => flights.delete(flightKey));
      flights.set(flightKey, flight);
    }
    const result = await flight;
    if (!result.ok) return { ...result, fallbackImage };
    return answer(result.asset, result.bytes, cache);
  }

  return { serve };
}

export type OnDemandImages = ReturnType<typeof createOnDemandImages>;
