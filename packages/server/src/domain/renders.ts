import type { AssetStore } from "../ports/asset-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { OutputFormat, RenderRecord, RenderStore } from "../ports/render-store.ts";
import type { TemplateStore } from "../ports/template-store.ts";
import { checkRenderValues } from "./document.ts";
import { type Failure, fail, type Result } from "./failure.ts";
import { newId } from "./ids.ts";
import { type Modification, ownedAssets, resolveModifications } from "./render-request.ts";
import { creditCost, isValidScale, MAX_OUTPUT_PIXELS, outputSize } from "./scale.ts";

export interface RenderRequest {
  template: string;
  modifications: Modification[];
  scale?: unknown;
  format?: "png" | "jpg" | "jpeg" | "webp";
  quality?: number;
  frame?: string;
  metadata?: Record<string, string>;
  tags?: string[];
  webhook_url?: string;
}

/**
 * Starting a render before its charge has committed: the render overlaps the charge's transaction
 * (about 0.15 ms of a waiting caller's time on the embedded default). `start` returns what to call
 * with the charge's outcome (true: committed; false: refused or failed, and the render is thrown
 * away), or null when it did not start the render after all.
 */
export interface EarlyStart {
  balance(accountId: string): Promise<number>;
  /** Resolves once the render is on its way (RenderQueue.startEarly). */
  start(render: RenderRecord): Promise<((admitted: boolean) => void) | null>;
}

export interface AcceptRenderDeps {
  templates: TemplateStore;
  renders: RenderStore;
  assets: AssetStore;
  clock: Clock;
  /** SafeFetch.check: the webhook target must be public (or allow-listed). */
  checkUrl(url: string): Promise<{ ok: true } | { ok: false; reason: string }>;
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
 * Validates and accepts one render. Checks run in the decided order (auth happened before):
 * scale with the body → template → slots/values → folder binding → webhook URL → credits, so a
 * request that fails validation is never charged. On success the render is charged and queued.
 */
export async function acceptRender(
  deps: AcceptRenderDeps,
  accountId: string,
  req: RenderRequest,
  /**
   * `startsAtOnce`: asked just before the charge (RenderQueue.startsAtOnce); true when the queue will
   * start the render now, which is then accepted as `rendering`. Asked that late so that other
   * requests accepted while this one was being checked are counted.
   */
  options: { idempotencyKey?: string; startsAtOnce?: () => boolean; startEarly?: EarlyStart } = {},
): Promise<Result<RenderRecord>> {
  const scale = req.scale === undefined ? 1 : req.scale;
  if (!isValidScale(scale)) return fail("invalid_scale", "scale must be a number from 1 to 4 inclusive.");
  const badWebhook = malformedWebhookUrl(req.webhook_url);
  if (badWebhook) return badWebhook;

  const template = await deps.templates.find(accountId, req.template);
  if (!template) return fail("not_found", `No template '${req.template}'.`);
  if (template.publishedVersion === null || template.archivedAt !== null) {
    return fail("template_not_published", `Template '${template.key}' is not published.`);
  }
  const version = await deps.templates.version(template.id, template.publishedVersion);
  if (!version) throw new Error(`template ${template.id} lost version ${template.publishedVersion}`);
  const doc = version.document;

  const frame = req.frame === undefined ? doc.frames[0] : doc.frames.find((f) => f.name === req.frame);
  if (!frame) {
    return fail("invalid_request", `Template '${template.key}' has no frame '${req.frame}'.`, {
      errors: [
        { path: "frame", message: `Unknown frame; frames: ${doc.frames.map((f) => f.name).join(", ")}.` },
      ],
    });
  }

  const size = outputSize(frame, scale);
  if (size.width * size.height > MAX_OUTPUT_PIXELS) {
    const limit = MAX_OUTPUT_PIXELS / 1_000_000;
    return fail(
      "invalid_request",
      `At scale ${scale} frame '${frame.name}' would be ${size.width}x${size.height} pixels; renders are at most ${limit} megapixels. Use a smaller scale.`,
      { errors: [{ path: "scale", message: `Output over ${limit} megapixels.` }] },
    );
  }

  const values = await resolveModifications(doc, req.modifications, ownedAssets(deps.assets, accountId));
  if (!values.ok) return values;
  // Values of the right type that the frame still cannot show (a QR code too long for its level) are
  // refused here, before the charge, rather than rendered as a blank.
  const [unencodable] = checkRenderValues(doc, frame.name, values.value);
  if (unencodable) {
    return fail("value_not_encodable", `Slot '${unencodable.slot}' ${unencodable.message}.`, {
      slot: unencodable.slot,
    });
  }

  if (req.webhook_url !== undefined) {
    const checked = await deps.checkUrl(req.webhook_url);
    if (!checked.ok) {
      return fail("invalid_webhook_url", `webhook_url is not allowed: ${checked.reason}`);
    }
  }

  const format: OutputFormat = req.format === "jpg" ? "jpeg" : (req.format ?? "png");
  const render: RenderRecord = {
    id: newId("rnd"),
    accountId,
    templateId: template.id,
    templateKey: template.key,
    templateVersion: version.version,
    frame: frame.name,
    scale,
    format,
    quality: req.quality ?? null,
    width: size.width,
    height: size.height,
    values: values.value,
    metadata: req.metadata ?? {},
    tags: req.tags ?? [],
    webhookUrl: req.webhook_url ?? null,
    idempotencyKey: options.idempotencyKey ?? null,
    status: options.startsAtOnce?.() ? "rendering" : "queued",
    creditsCharged: creditCost(scale),
    creditsRefunded: 0,
    error: null,
    warnings: [],
    assetId: null,
    createdAt: deps.clock.now().toISOString(),
    completedAt: null,
  };
  // Started while its charge commits (EarlyStart), when it starts at once and the balance covers it
  // (so a refused charge, which throws the render away, takes a race with another request).
  const admit =
    render.status === "rendering" &&
    options.startEarly &&
    (await options.startEarly.balance(accountId)) >= render.creditsCharged
      ? await options.startEarly.start(render)
      : null;
  let outcome: Awaited<ReturnType<RenderStore["accept"]>>;
  try {
    outcome = await deps.renders.accept(render);
  } catch (error) {
    admit?.(false);
    throw error;
  }
  admit?.(outcome.accepted);
  if (!outcome.accepted) {
    return fail(
      "insufficient_credits",
      `This render costs ${render.creditsCharged} credits; the balance is ${outcome.balance}.`,
      { required: render.creditsCharged, balance: outcome.balance },
    );
  }
  return { ok: true, value: render };
}
