import { Type as T } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { Preflight } from "../../app/render-service.ts";
import { errorBody as batchErrorBody, MAX_BATCH_ROWS } from "../../domain/batches.ts";
import type { Result } from "../../domain/failure.ts";
import { malformedWebhookUrl } from "../../domain/renders.ts";
import type { MeasuredWarning } from "../../ports/render-measurer.ts";
import type { App, AppDeps } from "../app-types.ts";
import { ApiError } from "../errors.ts";
import { orThrow, toApiError } from "../failure.ts";
import { defaultRateLimitKey } from "../plugins/rate-limit.ts";
import { BATCH_BODY_LIMIT } from "../plugins/server-options.ts";
import { TokenBuckets } from "../plugins/token-bucket-store.ts";
import { BatchBody } from "./batch-create.ts";
import { checkBatchRow } from "./batch-row-shape.ts";
import { RenderRequestBody } from "./render-create.ts";

/** Preflight requests a key may send at once, and the window in which that many come back. */
export const PREFLIGHT_BURST = 20;
export const PREFLIGHT_WINDOW_MS = 10_000;
/**
 * Frames one account may have measured (drawn) for free: a full batch at once, then as many again
 * over ten minutes. Preflight draws on the render threads and nobody pays for it, so this bounds
 * what one account takes of them on average, whatever its number of keys.
 */
export const PREFLIGHT_FRAMES_BURST = MAX_BATCH_ROWS;
export const PREFLIGHT_FRAMES_WINDOW_MS = 10 * 60_000;
/** An image enlarged more than this is reported (less is hardly visible). */
const UPSCALE_REPORTED_ABOVE = 1.5;

const Finding = T.Object(
  {
    code: T.Union(
      [
        T.Literal("text_shrunk"),
        T.Literal("text_truncated"),
        T.Literal("glyph_fallback"),
        T.Literal("font_missing"),
        T.Literal("font_synthesized"),
        T.Literal("image_upscaled"),
      ],
      {
        description:
          "text_shrunk (from_px, to_px), text_truncated (lines: the lines kept, the last ending with an ellipsis), glyph_fallback (family, characters it lacks, fallback_families that drew them), font_missing (family: not in the font set, neither shipped nor uploaded; fallback fonts drew the text), font_synthesized (family, weight, style: the family has no such face, so its nearest face, face_weight and face_style, was drawn with the synthesized bold and/or italic), image_upscaled (factor: how many times the source's pixels are enlarged at the requested scale; reported above 1.5)",
      },
    ),
    message: T.String(),
    from_px: T.Optional(T.Number()),
    to_px: T.Optional(T.Number()),
    lines: T.Optional(T.Integer()),
    family: T.Optional(T.String()),
    characters: T.Optional(T.Array(T.String())),
    fallback_families: T.Optional(
      T.Array(T.String(), {
        description: "The fallback fonts that drew those characters, in the order tried",
      }),
    ),
    factor: T.Optional(T.Number()),
    weight: T.Optional(T.Integer({ description: "font_synthesized: the weight the text asks for" })),
    style: T.Optional(T.Union([T.Literal("normal"), T.Literal("italic")])),
    face_weight: T.Optional(T.Integer({ description: "font_synthesized: the weight of the face drawn" })),
    face_style: T.Optional(T.Union([T.Literal("normal"), T.Literal("italic")])),
    synthesized: T.Optional(
      T.Array(T.Union([T.Literal("bold"), T.Literal("italic")]), {
        description: "font_synthesized: what was faked on that face",
      }),
    ),
  },
  { title: "PreflightFinding", additionalProperties: false },
);

export const PreflightReport = T.Object(
  {
    valid: T.Boolean({ description: "Whether the render would be accepted and drawn" }),
    cost: T.Union([T.Integer(), T.Null()], {
      description:
        "Credits the render would be charged (ceil(scale²) per image or PDF page); null when not valid",
    }),
    error: T.Union(
      [
        T.Object(
          { code: T.String(), message: T.String() },
          { additionalProperties: true, description: "The exact error the render would get" },
        ),
        T.Null(),
      ],
      { description: "Why it is not valid (the error code and body a render would get); null when valid" },
    ),
    measured: T.Boolean({
      description:
        "Whether the render was drawn to measure it (false on an API process without render threads: then only the checks ran)",
    }),
    width: T.Union([T.Integer(), T.Null()]),
    height: T.Union([T.Integer(), T.Null()]),
    layers: T.Array(
      T.Object(
        {
          layer: T.String({ description: "The layer's id" }),
          slot: T.Union([T.String(), T.Null()], {
            description: "The slot bound to what the finding is about",
          }),
          findings: T.Array(Finding),
        },
        { title: "PreflightLayer" },
      ),
      { description: "The layers with something to report; a text layer not listed was drawn as given" },
    ),
    slots_defaulted: T.Array(T.String(), { description: "Slots not given, drawn with their defaults" }),
  },
  {
    title: "PreflightReport",
    description:
      "A preflight: what a render of this request would cost and report; nothing charged or stored",
  },
);

type Report = typeof PreflightReport.static;

function reportOf(result: Result<Preflight>): Report {
  if (!result.ok) {
    return {
      valid: false,
      cost: null,
      error: batchErrorBody(result),
      measured: false,
      width: null,
      height: null,
      layers: [],
      slots_defaulted: [],
    };
  }
  const { render, warnings } = result.value;
  const layers = new Map<string, Report["layers"][number]>();
  const defaulted = new Set<string>();
  for (const warning of warnings ?? []) {
    if (warning.code === "slot_default_used") {
      if (warning.slot !== null) defaulted.add(warning.slot);
      continue;
    }
    const finding = findingOf(warning);
    if (finding === null) continue;
    const id = warning.layer ?? "";
    const entry = layers.get(id) ?? { layer: id, slot: warning.slot, findings: [] };
    // A PDF draws a layer once per page: each finding once.
    if (!entry.findings.some((f) => f.message === finding.message)) entry.findings.push(finding);
    layers.set(id, entry);
  }
  return {
    valid: true,
    cost: render.creditsCharged,
    error: null,
    measured: warnings !== null,
    width: render.width,
    height: render.height,
    layers: [...layers.values()],
    slots_defaulted: [...defaulted],
  };
}

function findingOf(warning: MeasuredWarning): Report["layers"][number]["findings"][number] | null {
  const d = warning.details ?? {};
  const number = (key: string) => (typeof d[key] === "number" ? { [key]: d[key] as number } : {});
  switch (warning.code) {
    case "text_shrunk":
      return { code: "text_shrunk", message: warning.message, ...number("from_px"), ...number("to_px") };
    case "text_truncated":
      return { code: "text_truncated", message: warning.message, ...number("lines") };
    case "glyph_fallback":
    case "font_missing":
      return {
        code: warning.code,
        message: warning.message,
        ...(typeof d.family === "string" ? { family: d.family } : {}),
        ...(Array.isArray(d.characters) ? { characters: d.characters } : {}),
        ...(Array.isArray(d.fallback_families) ? { fallback_families: d.fallback_families } : {}),
      };
    case "font_synthesized": {
      const slant = (key: string) =>
        d[key] === "italic" || d[key] === "normal" ? { [key]: d[key] as "italic" | "normal" } : {};
      const synthesized = Array.isArray(d.synthesized)
        ? d.synthesized.filter((s): s is "bold" | "italic" => s === "bold" || s === "italic")
        : [];
      return {
        code: "font_synthesized",
        message: warning.message,
        ...(typeof d.family === "string" ? { family: d.family } : {}),
        ...number("weight"),
        ...slant("style"),
        ...number("face_weight"),
        ...slant("face_style"),
        synthesized,
      };
    }
    case "image_upscaled": {
      const factor = typeof d.factor === "number" ? d.factor : null;
      if (factor !== null && factor <= UPSCALE_REPORTED_ABOVE) return null;
      return { code: "image_upscaled", message: warning.message, ...(factor !== null ? { factor } : {}) };
    }
    default:
      return null;
  }
}

const rateLimit = {
  max: PREFLIGHT_BURST,
  timeWindow: PREFLIGHT_WINDOW_MS,
  keyGenerator: (request: FastifyRequest) => `preflight:${defaultRateLimitKey(request)}`,
};
const LIMIT_TEXT = `Its own rate limit per API key, apart from the API's: ${PREFLIGHT_BURST} at once, then ${(PREFLIGHT_BURST * 1000) / PREFLIGHT_WINDOW_MS} a second; and per account ${PREFLIGHT_FRAMES_BURST} renders (batch rows) measured at once, then as many again over ${PREFLIGHT_FRAMES_WINDOW_MS / 60_000} minutes; one preflight of an account draws at a time, and preflights never take the last render thread (429 rate_limited, or 503 unavailable when the threads are busy, with Retry-After).`;

/**
 * Takes `frames` from the account's preflight budget, or answers 429 with when to retry. A batch
 * takes its rows at once, so it either measures whole or not at all.
 */
function takeFrames(buckets: TokenBuckets, accountId: string, frames: number): void {
  const taken = buckets.take(
    `preflight:${accountId}`,
    PREFLIGHT_FRAMES_BURST,
    PREFLIGHT_FRAMES_WINDOW_MS,
    frames,
  );
  if (taken.taken) return;
  const wait = Math.max(1, Math.ceil(taken.ttl / 1000));
  throw new ApiError(
    "rate_limited",
    `This account has had ${PREFLIGHT_FRAMES_BURST} renders measured by preflight in the last ${PREFLIGHT_FRAMES_WINDOW_MS / 60_000} minutes; retry in ${wait} s.`,
    {},
    { "Retry-After": String(wait) },
  );
}

const { wait: _wait, ...preflightProperties } = RenderRequestBody.properties;
export const PreflightBody = T.Object(
  { ...preflightProperties, wait: T.Optional(RenderRequestBody.properties.wait) },
  // The same document schema as a render's body, so one named RenderRequest in the OpenAPI document.
  { title: "RenderRequest", additionalProperties: false },
);

/**
 * `POST /v1/renders/preflight` and `POST /v1/renders/batch/preflight`: the bodies of a render and a
 * batch, checked and drawn as they would be (on a render thread) but never charged, stored or
 * encoded; the answer says whether each would render, its cost, and per layer what the drawing
 * reported.
 */
export function registerRenderPreflight(app: App, deps: AppDeps): void {
  const frames = new TokenBuckets();
  app.post(
    "/v1/renders/preflight",
    {
      config: { rateLimit },
      schema: {
        summary:
          "Check a render before sending it: valid or its exact error, cost, and per layer what the drawing reports; free",
        description: `The body of POST /v1/renders (wait is ignored). Nothing is charged or stored and no image is returned; the render is drawn on a render thread as it would be, images fetched and prepared the same way. ${LIMIT_TEXT}`,
        tags: ["renders"],
        body: PreflightBody,
        response: { 200: PreflightReport },
      },
    },
    async (request) => {
      const { wait: _ignored, ...body } = request.body;
      takeFrames(frames, request.accountId, 1);
      const result = await deps.renderService.preflight(request.accountId, body);
      // A full house is the server's state, not the request's: answered as an error to retry.
      if (!result.ok && result.code === "unavailable") throw toApiError(result);
      return reportOf(result);
    },
  );

  app.post(
    "/v1/renders/batch/preflight",
    {
      bodyLimit: BATCH_BODY_LIMIT,
      config: { rateLimit },
      preValidation: async (request) => {
        const rows = (request.body as { renders?: unknown } | null)?.renders;
        if (Array.isArray(rows) && rows.length > MAX_BATCH_ROWS) {
          throw new ApiError(
            "payload_too_large",
            `A batch holds at most ${MAX_BATCH_ROWS} rows; this one has ${rows.length}.`,
            { max_rows: MAX_BATCH_ROWS },
          );
        }
      },
      schema: {
        summary:
          "Check a batch before sending it: per row valid or its exact error, cost, and per layer what the drawing reports; free",
        description: `The body of POST /v1/renders/batch (at most ${MAX_BATCH_ROWS} rows). Rows are checked and drawn one after another, nothing is charged or stored. ${LIMIT_TEXT}`,
        tags: ["renders"],
        body: BatchBody,
        response: {
          200: T.Object({
            cost: T.Integer({ description: "Credits the valid rows would be charged together" }),
            valid_rows: T.Integer(),
            renders: T.Array(T.Composite([T.Object({ index: T.Integer() }), PreflightReport])),
          }),
        },
      },
    },
    async (request) => {
      const body = request.body;
      const badWebhook = malformedWebhookUrl(body.webhook_url);
      if (badWebhook) throw toApiError(badWebhook);
      takeFrames(frames, request.accountId, body.renders.length);
      const renders: ({ index: number } & Report)[] = [];
      for (const [index, raw] of body.renders.entries()) {
        const row = checkBatchRow(raw, index);
        let result: Result<Preflight>;
        if ("ok" in row) result = row;
        else {
          const { idempotency_key: _key, ...fields } = row;
          const webhookUrl = fields.webhook_url ?? body.webhook_url;
          result = await deps.renderService.preflight(request.accountId, {
            ...fields,
            ...(webhookUrl !== undefined ? { webhook_url: webhookUrl } : {}),
          });
          if (!result.ok && result.code === "unavailable") orThrow(result);
        }
        renders.push({ index, ...reportOf(result) });
      }
      return {
        cost: renders.reduce((sum, r) => sum + (r.cost ?? 0), 0),
        valid_rows: renders.filter((r) => r.valid).length,
        renders,
      };
    },
  );
}
