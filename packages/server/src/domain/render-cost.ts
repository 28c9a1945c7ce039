import { DRAWING_HEAP_BYTES, estimateRenderCost, type RenderCost } from "@pictor/render-node/cost";
import type { AssetRecord, AssetStore } from "../ports/asset-store.ts";
import type { OutputFormat } from "../ports/render-store.ts";
import { frameImages, type SlotValue, type TemplateDocumentT } from "./document.ts";
import { type Failure, fail, type Result } from "./failure.ts";
import { assetIdOf } from "./render-request.ts";

/**
 * A render's inputs and size, decided before it is charged: every asset it names must still be in
 * the account, and its estimated peak memory (the cost model: @pictor/render-node/cost over the
 * engine's estimate) must fit the render threads' drawing heap and the server's per-render budget.
 * Each refusal is cheap for the server (no pixel is drawn) and free for the caller.
 */

export interface RenderShape {
  /** The frames drawn, in order: one for an image, a PDF's pages. */
  frames: readonly string[];
  scale: number;
  values: Record<string, SlotValue>;
  format: OutputFormat;
  /** An animated render's frame count. */
  animationFrames?: number;
}

const MIB = 1024 * 1024;
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const mib = (bytes: number) => `${Math.ceil(bytes / MIB).toLocaleString("en-US")} MiB`;

/**
 * The account's assets that the render's frames name (`asset://…` in a layer's source, a slot's
 * default or the request's value), by id; the failure naming the first one the account no longer has
 * (deleted, or never its own): the render would fail on it after drawing the pages before.
 */
export async function namedAssets(
  assets: Pick<AssetStore, "getMany">,
  accountId: string,
  doc: TemplateDocumentT,
  shape: RenderShape,
): Promise<Result<Map<string, AssetRecord>>> {
  const named: { id: string; frame: string; slot: string | null }[] = [];
  for (const frame of shape.frames) {
    for (const image of frameImages(doc, { frame, scale: shape.scale, values: shape.values })) {
      const id = assetIdOf(image.src);
      if (id !== null) named.push({ id, frame, slot: image.slot });
    }
  }
  const ids = [...new Set(named.map((n) => n.id))];
  const found = new Map(
    ids.length === 0 ? [] : (await assets.getMany(accountId, ids)).map((asset) => [asset.id, asset]),
  );
  const missing = named.find((n) => !found.has(n.id));
  if (missing) {
    const where = missing.slot === null ? "the template's design" : `slot '${missing.slot}'`;
    return fail(
      "image_fetch_failed",
      `Frame '${missing.frame}' shows asset ${missing.id} (${where}), which is not in this account: it was deleted, or never uploaded here. Nothing was drawn or charged.`,
      {
        asset_id: missing.id,
        frame: missing.frame,
        ...(missing.slot === null ? {} : { slot: missing.slot }),
      },
    );
  }
  return { ok: true, value: found };
}

/** The render's estimate, with the sizes of the assets it names (other sources count at the largest accepted). */
export function renderCost(
  doc: TemplateDocumentT,
  shape: RenderShape,
  assets: ReadonlyMap<string, AssetRecord>,
): RenderCost {
  return estimateRenderCost(doc, {
    format: shape.format,
    ...(shape.animationFrames === undefined ? {} : { animationFrames: shape.animationFrames }),
    frames: shape.frames,
    scale: shape.scale,
    values: shape.values,
    sourcePixels: (src) => {
      const id = assetIdOf(src);
      const asset = id === null ? undefined : assets.get(id);
      return asset?.width && asset.height ? asset.width * asset.height : undefined;
    },
  });
}

/**
 * `render_too_large` when the render cannot be drawn at all (its rasters do not fit CanvasKit's heap,
 * whatever the server's memory) or its peak is over `budgetBytes` (the server's per-render budget;
 * null: none set). The message names the frame, the layer whose rasters weigh most and the figures.
 */
export function tooLarge(cost: RenderCost, shape: RenderShape, budgetBytes: number | null): Failure | null {
  const unfit = cost.unfit;
  const over = budgetBytes !== null && cost.bytes > budgetBytes;
  if (unfit === null && !over) return null;
  const frame = unfit ?? cost.costliest.frame;
  // The layer weighing most where the limit is: the drawing heap's share, or everything it holds.
  const layer = unfit
    ? frame.layers.reduce<(typeof frame.layers)[number] | undefined>(
        (a, b) => (a === undefined || b.heapBytes > a.heapBytes ? b : a),
        undefined,
      )
    : frame.layers[0];
  const details = {
    frame: frame.frame,
    layer: layer?.id ?? null,
    path: layer?.path ?? null,
    scale: shape.scale,
    estimated_bytes: Math.ceil(unfit ? unfit.heapBytes : cost.bytes),
    limit_bytes: unfit ? DRAWING_HEAP_BYTES : budgetBytes,
  };
  const where = `frame '${frame.frame}' at scale ${shape.scale} (${frame.width}x${frame.height} pixels)`;
  const part = (bytes: number) =>
    layer
      ? `layer '${layer.id}' (${layer.path}) ${mib(bytes)}: its shadows, blurs, offscreen layers and image pixels`
      : `its surface ${mib(frame.surfaceBytes)}`;
  if (unfit) {
    return fail(
      "render_too_large",
      `${capitalized(where)} cannot be drawn: its rasters could take ${mib(frame.heapBytes)} of the renderer's drawing memory, which holds ${mib(DRAWING_HEAP_BYTES)} whatever the server's memory; of that, ${part(layer?.heapBytes ?? 0)}. Use a smaller scale, or smaller shadows, blurs or layers. Nothing was charged.`,
      details,
    );
  }
  const pages =
    shape.frames.length > 1
      ? `, and the ${shape.frames.length} pages' compressed images up to ${mib(cost.heldBytes)} until the PDF is written`
      : "";
  return fail(
    "render_too_large",
    `This render could take ${mib(cost.bytes)} of memory at its peak, over this server's ${mib(budgetBytes ?? 0)} per render: ${where} takes ${mib(cost.costliest.bytes)} to draw and encode, of which ${part(layer?.bytes ?? 0)}${pages}. Use a smaller scale, fewer pages, or smaller shadows, blurs or layers. Nothing was charged.`,
    details,
  );
}
