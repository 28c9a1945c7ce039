import type { ImageRequest, SlotValues } from "../api.ts";
import type { Layer, TemplateDocumentT } from "../document/schema.ts";
import { Bindings } from "./bindings.ts";
import { forEachDrawnLayer } from "./drawn-layers.ts";
import { checkScale, findFrame } from "./geometry.ts";
import { kindOf } from "./painters/registry.ts";

// Apart from image-plan.ts, which the image painter uses: planning walks every kind (the registry).

/** Every image a frame's drawn layers need, deduplicated by key, in paint order. */
export function planFrameImages(
  layers: readonly Layer[],
  framePath: string,
  bindings: Bindings,
  scale: number,
): ImageRequest[] {
  const byKey = new Map<string, ImageRequest>();
  forEachDrawnLayer(layers, framePath, bindings, (layer, path) => {
    for (const request of kindOf(layer).images?.(layer, path, bindings, scale) ?? []) {
      if (!byKey.has(request.key)) byKey.set(request.key, request);
    }
  });
  return [...byKey.values()];
}

/**
 * The images a render of one frame names (after binding), as the host will be asked for them: pure,
 * for a host that checks the sources before anything is drawn (an asset that no longer exists).
 */
export function frameImages(
  document: TemplateDocumentT,
  options: { frame?: string | undefined; scale?: number | undefined; values?: SlotValues | undefined },
): ImageRequest[] {
  const { frame, path } = findFrame(document, options.frame);
  const bindings = new Bindings(document, options.values ?? {}, null);
  return planFrameImages(frame.layers, path, bindings, checkScale(options.scale));
}
