import type { ImageRequest, SlotValues } from "../api.ts";
import { isAlphaMask } from "../document/common.ts";
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
  const add = (layer: Layer, path: string) => {
    for (const request of kindOf(layer).images?.(layer, path, bindings, scale) ?? []) {
      if (!byKey.has(request.key)) byKey.set(request.key, request);
    }
  };
  let sources: Map<string, { layer: Layer; path: string }> | null = null;
  forEachDrawnLayer(layers, framePath, bindings, (layer, path) => {
    add(layer, path);
    // A soft mask's source layer is drawn for its alpha even when hidden: its images are needed too.
    if (isAlphaMask(layer.mask) && "layer" in layer.mask) {
      sources ??= layersById(layers, framePath);
      const source = sources.get(layer.mask.layer);
      if (source !== undefined) add(source.layer, source.path);
    }
  });
  return [...byKey.values()];
}

/** Every layer of a frame, drawn or not, by id (ids are unique in a frame), with its JSON path. */
function layersById(layers: readonly Layer[], path: string): Map<string, { layer: Layer; path: string }> {
  const byId = new Map<string, { layer: Layer; path: string }>();
  const visit = (list: readonly Layer[], parent: string) => {
    list.forEach((layer, index) => {
      const at = `${parent}.layers[${index}]`;
      byId.set(layer.id, { layer, path: at });
      const children = kindOf(layer).children?.(layer);
      if (children) visit(children as Layer[], at);
    });
  };
  visit(layers, path);
  return byId;
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
