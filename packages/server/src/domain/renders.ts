import type { AssetStore } from "../ports/asset-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { OutputFormat, RenderRecord } from "../ports/render-store.ts";
import type { TemplateStore } from "../ports/template-store.ts";
import { animationOf, isAnimatedRequest, malformedAnimatedField } from "./animation-request.ts";
import type { TemplateDocumentT } from "./document.ts";
import { checkRenderValues } from "./document.ts";
import { type Failure, fail, type Result } from "./failure.ts";
import { newId } from "./ids.ts";
import { namedAssets, renderCost, tooLarge } from "./render-cost.ts";
import { type Modification, ownedAssets, resolveModifications, VALUE_FIELD } from "./render-request.ts";
import { animationCreditCost, creditCost, isValidScale, MAX_OUTPUT_PIXELS, outputSize } from "./scale.ts";

/** Frame pixels per inch of a PDF page when the request names none: CSS pixels, 1 px = 0.75 pt. */
export const DEFAULT_PDF_DPI = 96;
/** The largest PDF page side readers accept (Acrobat: 200 inches). */
const MAX_PAGE_POINTS = 14_400;

/**
 * The body rules of `frames` and `dpi`, checked with the body (before the template): both are for
 * PDFs only, and `frames` and `frame` exclude each other.
 */
function malformedPdfFields(req: RenderRequest): Failure | null {
  const refuse = (path: string, message: string) =>
    fail("invalid_request", message, { errors: [{ path, message }] });
  if (req.format !== "pdf") {
    if (req.frames !== undefined) {
      return refuse(
        "frames",
        "frames makes a PDF of several pages and needs format 'pdf'; an image shows one frame (use frame, or a batch with a row per frame).",
      );
    }
    if (req.dpi !== undefined)
      return refuse("dpi", "dpi sets the page size of a PDF and needs format 'pdf'.");
  }
  if (req.frames !== undefined && req.frame !== undefined) {
    return refuse("frames", "Give frame (one page) or frames (pages in order), not both.");
  }
  if (Array.isArray(req.frames) && req.frames.length === 0) {
    return refuse("frames", 'frames needs at least one frame name, or "all".');
  }
  return null;
}

/** The frames a request draws, in order (an image: one), or the failure naming the bad one. */
function chooseFrames(
  doc: TemplateDocumentT,
  templateKey: string,
  req: RenderRequest,
): Result<TemplateDocumentT["frames"]> {
  const known = doc.frames.map((f) => f.name).join(", ");
  const unknown = (path: string, name: string | undefined) =>
    fail("invalid_request", `Template '${templateKey}' has no frame '${name}'.`, {
      errors: [{ path, message: `Unknown frame; frames: ${known}.` }],
    });
  if (req.frames === "all") return { ok: true, value: doc.frames };
  if (req.frames === undefined) {
    const frame = req.frame === undefined ? doc.frames[0] : doc.frames.find((f) => f.name === req.frame);
    return frame ? { ok: true, value: [frame] } : unknown("frame", req.frame);
  }
  const chosen: TemplateDocumentT["frames"] = [];
  for (const [i, name] of req.frames.entries()) {
    const frame = doc.frames.find((f) => f.name === name);
    if (!frame) return unknown(`frames[${i}]`, name);
    const earlier = req.frames.indexOf(name);
    if (earlier < i) {
      const message = `Frame '${name}' is already page ${earlier + 1}; each frame is one page.`;
      return fail("invalid_request", message, { errors: [{ path: `frames[${i}]`, message }] });
    }
    chosen.push(frame);
  }
  return { ok: true, value: chosen };
}

export interface RenderRequest {
  template: string;
  modifications: Modification[];
  scale?: unknown;
  format?: "png" | "jpg" | "jpeg" | "webp" | "pdf" | "gif" | "mp4";
  /** WebP only: an animated WebP of the frame's motion (gif and mp4 are always animated). */
  animated?: boolean;
  quality?: number;
  /**
   * PNG encoder effort: `speed` (least CPU) or `size` (fewer bytes, same pixels). Default `speed`
   * when a caller waits for the render, `size` otherwise (async and batch renders).
   */
  optimize?: "speed" | "size";
  frame?: string;
  /** PDF only: the frames to draw, one page each in this order, or "all" (the template's order). */
  frames?: string[] | "all";
  /** PDF only: frame pixels per inch, which set the page size (default 96: 1 px = 0.75 pt). */
  dpi?: number;
  metadata?: Record<string, string>;
  tags?: string[];
  webhook_url?: string;
}

export interface PrepareRenderDeps {
  templates: TemplateStore;
  assets: AssetStore;
  clock: Clock;
  /** SafeFetch.check: the webhook target must be public (or allow-listed). */
  checkUrl(url: string): Promise<{ ok: true } | { ok: false; reason: string }>;
  /**
   * What one render may take at its peak, bytes (the memory plan's `renderBytes`): a render estimated
   * above it is refused as `render_too_large`. Absent: only renders that cannot be drawn at all are.
   */
  renderBudgetBytes?: number;
  /** Whether MP4 can be encoded here (an ffmpeg was found); absent or false: `format_unavailable`. */
  mp4Encoder?: boolean;
}

/**
 * Where a refused value is in the request: `modifications[i].<field>` when the request gave the slot,
 * else the engine's path (a slot's default: `slots.goal.default`).
 */
function modificationPath(
  doc: TemplateDocumentT,
  modifications: readonly Modification[],
  slot: string,
  enginePath: string,
): string {
  const index = modifications.findIndex((mod) => mod.name === slot);
  const type = doc.slots.find((s) => s.name === slot)?.type;
  if (index < 0 || type === undefined || !enginePath.startsWith(`values.${slot}`)) return enginePath;
  return `modifications[${index}].${VALUE_FIELD[type]}${enginePath.slice(`values.${slot}`.length)}`;
}

/**
 * A `webhook_url` that is not an absolute URL at all is a malformed body field (400, checked with the
 * body); one that parses but is not http(s) or not public is `invalid_webhook_url` (422, checked
 * after the slots, as the decided order says).
 */
export function malformedWebhookUrl(url: string | undefined): Failure | null {
  if (url === undefined || URL.canParse(url)) return null;
  return fail("invalid_request", "webhook_url is not a valid absolute URL.", {
    errors: [{ path: "webhook_url", message: "Not a valid absolute URL." }],
  });
}

/**
 * Validates one render request and builds its record, `queued` and not yet charged. Checks run in
 * this order (auth happened before): scale with the body → template → slots/values → folder binding
 * → the assets it names and its size (domain/render-cost.ts) → webhook URL, so a request that fails
 * validation is never charged; the charge (and the credits check) is the dispatcher's submit, which
 * the render service calls next.
 */
export async function prepareRender(
  deps: PrepareRenderDeps,
  accountId: string,
  req: RenderRequest,
  options: {
    idempotencyKey?: string;
    /** A published version to render instead of the latest (on-demand image URLs pin one with `v`). */
    version?: number;
    /** The X-Request-Id of the request asking for it: kept with the render and sent with its callback. */
    requestId?: string;
  } = {},
): Promise<Result<RenderRecord>> {
  const scale = req.scale === undefined ? 1 : req.scale;
  if (!isValidScale(scale)) return fail("invalid_scale", "scale must be a number from 1 to 4 inclusive.");
  const badWebhook =
    malformedWebhookUrl(req.webhook_url) ??
    malformedPdfFields(req) ??
    malformedAnimatedField(req.format, req.animated);
  if (badWebhook) return badWebhook;
  if (req.format === "mp4" && deps.mp4Encoder !== true) {
    return fail(
      "format_unavailable",
      "This server cannot encode mp4: it has no ffmpeg (install it, or set PICTOR_FFMPEG to its path). gif and animated webp need none. Nothing was charged.",
      { format: "mp4" },
    );
  }

  const template = await deps.templates.find(accountId, req.template);
  if (!template) return fail("not_found", `No template '${req.template}'.`);
  if (template.publishedVersion === null || template.archivedAt !== null) {
    return fail("template_not_published", `Template '${template.key}' is not published.`);
  }
  const pinned = options.version !== undefined && options.version <= template.publishedVersion;
  const versionNo = pinned ? (options.version as number) : template.publishedVersion;
  const version = await deps.templates.version(template.id, versionNo);
  if (!version) throw new Error(`template ${template.id} lost version ${versionNo}`);
  const doc = version.document;

  const frames = chooseFrames(doc, template.key, req);
  if (!frames.ok) return frames;
  const [frame] = frames.value;
  if (!frame) throw new Error(`template ${template.id} has no frames`);
  const pdf = req.format === "pdf";
  const dpi = pdf ? (req.dpi ?? DEFAULT_PDF_DPI) : null;

  for (const page of frames.value) {
    const size = outputSize(page, scale);
    if (size.width * size.height > MAX_OUTPUT_PIXELS) {
      const limit = MAX_OUTPUT_PIXELS / 1_000_000;
      return fail(
        "invalid_request",
        `At scale ${scale} frame '${page.name}' would be ${size.width}x${size.height} pixels; renders are at most ${limit} megapixels. Use a smaller scale.`,
        { errors: [{ path: "scale", message: `Output over ${limit} megapixels.` }] },
      );
    }
    if (dpi !== null && (Math.max(page.width, page.height) * 72) / dpi > MAX_PAGE_POINTS) {
      const message = `At ${dpi} dpi frame '${page.name}' (${page.width}x${page.height} px) would be a page over 200 inches, which PDF readers refuse. Use a higher dpi.`;
      return fail("invalid_request", message, {
        errors: [{ path: "dpi", message: "Page over 200 inches." }],
      });
    }
  }
  const size = outputSize(frame, scale);
  const animated = isAnimatedRequest(req.format, req.animated);
  const animation = animated ? animationOf(frame, scale, req.format ?? "png") : null;
  if (animation !== null && !animation.ok) return animation;

  const values = await resolveModifications(doc, req.modifications, ownedAssets(deps.assets, accountId));
  if (!values.ok) return values;
  // Values of the right type that the frame still cannot show (a QR code too long for its level) are
  // refused here, before the charge, rather than rendered as a blank. Values whose shape the layer
  // refuses (a list longer than a chart shows, a range made empty) are a bad request, with their path.
  const refused = frames.value.flatMap((page) => checkRenderValues(doc, page.name, values.value));
  const invalid = refused.filter((error) => error.kind === "invalid");
  if (invalid.length > 0) {
    const errors = invalid.map((error) => ({
      path: modificationPath(doc, req.modifications, error.slot, error.path),
      message: error.message,
    }));
    const first = invalid[0] as (typeof invalid)[number];
    return fail("invalid_request", `Slot '${first.slot}' ${first.message}.`, { errors });
  }
  const [unencodable] = refused;
  if (unencodable) {
    return fail("value_not_encodable", `Slot '${unencodable.slot}' ${unencodable.message}.`, {
      slot: unencodable.slot,
    });
  }

  // Before anything is drawn or charged: the assets the frames name must still exist (a deleted one
  // would fail the render after drawing the pages before it), and the render must fit in memory.
  const format: OutputFormat = req.format === "jpg" ? "jpeg" : (req.format ?? "png");
  const shape = {
    frames: frames.value.map((f) => f.name),
    scale,
    values: values.value,
    format,
    ...(animation === null ? {} : { animationFrames: animation.value.frames }),
  };
  const assets = await namedAssets(deps.assets, accountId, doc, shape);
  if (!assets.ok) return assets;
  const tooBig = tooLarge(renderCost(doc, shape, assets.value), shape, deps.renderBudgetBytes ?? null);
  if (tooBig) return tooBig;

  if (req.webhook_url !== undefined) {
    const checked = await deps.checkUrl(req.webhook_url);
    if (!checked.ok) {
      return fail("invalid_webhook_url", `webhook_url is not allowed: ${checked.reason}`);
    }
  }

  const render: RenderRecord = {
    id: newId("rnd"),
    accountId,
    templateId: template.id,
    templateKey: template.key,
    templateVersion: version.version,
    frame: frame.name,
    frames: pdf ? frames.value.map((f) => f.name) : null,
    dpi,
    scale,
    format,
    ...(animation === null ? {} : { animation: animation.value }),
    quality: req.quality ?? null,
    // speed unless asked: size spends about 0.4 s of CPU on a 1200x630 PNG (oxipng) against 6 ms,
    // which as a default would make every batch some 70 times as expensive to run.
    ...(req.optimize === "size" && format === "png" ? { optimize: "size" as const } : {}),
    width: size.width,
    height: size.height,
    values: values.value,
    metadata: req.metadata ?? {},
    tags: req.tags ?? [],
    webhookUrl: req.webhook_url ?? null,
    idempotencyKey: options.idempotencyKey ?? null,
    ...(options.requestId ? { requestId: options.requestId } : {}),
    status: "queued",
    // scale² per image, and per page of a PDF; an animation scale² a second of it, rounded up.
    creditsCharged:
      animation === null
        ? creditCost(scale) * frames.value.length
        : animationCreditCost(scale, animation.value.duration),
    creditsRefunded: 0,
    error: null,
    warnings: [],
    assetId: null,
    createdAt: deps.clock.now().toISOString(),
    completedAt: null,
  };
  return { ok: true, value: render };
}

/**
 * What a caller who waited is told of a failed render: the image failures by their own codes (the
 * request's image could not be used), anything else as `internal_error` (details stay in the log).
 */
export function renderFailure(render: RenderRecord): {
  code: "image_fetch_failed" | "image_invalid" | "internal_error";
  message: string;
  details: { render_id: string; credits_refunded: number };
} {
  const code = render.error?.code;
  return {
    code: code === "image_fetch_failed" || code === "image_invalid" ? code : "internal_error",
    message: render.error?.message ?? "The render failed.",
    details: { render_id: render.id, credits_refunded: render.creditsRefunded },
  };
}
