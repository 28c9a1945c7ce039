import type { FastifyRequest } from "fastify";
import type { AssetRecord } from "../ports/asset-store.ts";
import type { RenderRecord } from "../ports/render-store.ts";
import type { TemplateRecord } from "../ports/template-store.ts";
import type { AppDeps } from "./app-types.ts";
import { baseUrl } from "./base-url.ts";

export const EXT_BY_TYPE: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "video/mp4": "mp4",
  "font/ttf": "ttf",
  "font/otf": "otf",
  "image/svg+xml": "svg",
  "application/pdf": "pdf",
};

/** The permanent link of an asset: served by the API or a CDN. */
export function assetUrl(base: string, asset: AssetRecord): string {
  return `${base}/a/${asset.token}.${EXT_BY_TYPE[asset.contentType] ?? "bin"}`;
}

/** Both links of an output asset, as the job object and the completion callback carry them. */
export async function assetLinksAt(
  deps: Pick<AppDeps, "outputLinks" | "clock">,
  base: string,
  asset: AssetRecord,
): Promise<{ asset_url: string; output_url: string }> {
  return {
    asset_url: assetUrl(base, asset),
    output_url: await deps.outputLinks.outputUrl(asset, base, deps.clock.now()),
  };
}

/**
 * The job object of the API (docs/api.md), field for field. `outputAsset`: the render's output
 * asset when the caller has it at hand (undefined: read it).
 */
export async function jobView(
  deps: AppDeps,
  request: FastifyRequest,
  r: RenderRecord,
  outputAsset?: AssetRecord | null,
) {
  const asset =
    outputAsset !== undefined
      ? outputAsset
      : r.assetId
        ? await deps.assets.get(r.accountId, r.assetId)
        : null;
  const links = asset
    ? await assetLinksAt(deps, baseUrl(request, deps.publicUrl), asset)
    : { output_url: null, asset_url: null };
  return {
    id: r.id,
    status: r.status,
    template: r.templateKey,
    template_version: r.templateVersion,
    frame: r.frame,
    frames: r.frames ?? [r.frame],
    pages: r.frames === null ? null : r.frames.length,
    dpi: r.dpi,
    scale: r.scale,
    format: r.format,
    ...(r.animation
      ? {
          animation: {
            frame_count: r.animation.frames,
            fps: r.animation.fps,
            duration: r.animation.duration,
          },
        }
      : {}),
    width: r.width,
    height: r.height,
    credits_charged: r.creditsCharged,
    credits_refunded: r.creditsRefunded,
    output_url: links.output_url,
    asset_url: links.asset_url,
    asset_id: r.assetId,
    metadata: r.metadata,
    tags: r.tags,
    warnings: r.warnings,
    error: r.error,
    webhook_url: r.webhookUrl,
    created_at: r.createdAt,
    completed_at: r.completedAt,
  };
}

export function templateSummary(t: TemplateRecord) {
  return {
    id: t.id,
    key: t.key,
    name: t.name,
    description: t.draft.description ?? null,
    status: t.archivedAt
      ? ("archived" as const)
      : t.publishedVersion === null
        ? ("draft" as const)
        : ("published" as const),
    published_version: t.publishedVersion,
    frames: t.draft.frames.map((f) => ({ name: f.name, width: f.width, height: f.height })),
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}

export function templateDetail(t: TemplateRecord) {
  return { ...templateSummary(t), document: t.draft };
}
