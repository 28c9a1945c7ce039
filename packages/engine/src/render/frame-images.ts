import type { ImageRequest, SlotValues } from "../api.ts";
import { isAlphaMask } from "../document/common.ts";
import type { FrameT, Layer, TemplateDocumentT } from "../document/schema.ts";
import { Bindings } from "./bindings.ts";
import { forEachDrawnLayer } from "./drawn-layers.ts";
import { checkScale, findFrame } from "./geometry.ts";
import { imagePatternRequest, imagePatternsOf } from "./image-pattern.ts";
import { kindOf } from "./painters/registry.ts";

// Apart from image-plan.ts, which the image painter uses: planning walks every kind (the registry).

/**
 * Every image a frame's drawn layers need, deduplicated by key, in paint order: the frame's
 * background pattern first, then each layer's own (an image layer's picture) and its paints' image
 * patterns.
 */
export function planFrameImages(
  frame: Pick<FrameT, "layers" | "background" | "bind">,
  framePath: string,
  bindings: Bindings,
  scale: number,
): ImageRequest[] {
  return [...planImagesByUse(frame, framePath, bindings, scale).all.values()];
}

/** The requests of planFrameImages that image patterns make (their tiles, for the cost estimate). */
export function planPatternTiles(
  frame: Pick<FrameT, "layers" | "background" | "bind">,
  framePath: string,
  bindings: Bindings,
  scale: number,
): ImageRequest[] {
  return [...planImagesByUse(frame, framePath, bindings, scale).tiles.values()];
}

function planImagesByUse(
  frame: Pick<FrameT, "layers" | "background" | "bind">,
  framePath: string,
  bindings: Bindings,
  scale: number,
): { all: Map<string, ImageRequest>; tiles: Map<string, ImageRequest> } {
  const layers = frame.layers;
  const byKey = new Map<string, ImageRequest>();
  const tiles = new Map<string, ImageRequest>();
  const addRequest = (request: ImageRequest) => {
    if (!byKey.has(request.key)) byKey.set(request.key, request);
  };
  const addPatterns = (owner: object) => {
    for (const pattern of imagePatternsOf(owner)) {
      const request = imagePatternRequest(pattern, scale);
      addRequest(request);
      if (!tiles.has(request.key)) tiles.set(request.key, request);
    }
  };
  addPatterns(frame);
  const add = (layer: Layer, path: string) => {
    for (const request of kindOf(layer).images?.(layer, path, bindings, scale) ?? []) addRequest(request);
    addPatterns(layer);
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
  return { all: byKey, tiles };
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
  return planFrameImages(frame, path, bindings, checkScale(options.scale));
}
