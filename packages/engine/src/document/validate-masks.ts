import { isAlphaMask } from "./common.ts";
import type { LayerBase } from "./layers/kind.ts";
import { definitionOf, LAYER_DEFINITIONS } from "./layers/registry.ts";
import type { Layer } from "./schema.ts";
import { didYouMean, quoteList, type ValidationError } from "./validate-paths.ts";

/** Layer types whose outline can mask another layer (`canMask`). */
const OUTLINE_TYPES = LAYER_DEFINITIONS.filter((kind) => kind.canMask === true).map((kind) => kind.type);

// `frames[0].layers[2].layers[1]` -> `frames[0].layers[2]`: the parent's path.
const LAST_STEP = /\.layers\[\d+\]$/;

/**
 * A `{ layer }` mask must name another layer of the same parent (frame or group, so both are in one
 * coordinate space; render/mask.ts) whose kind has an outline. `layerPaths` maps the frame's layer
 * ids to their JSON paths, `layersById` to the layers.
 */
export function maskErrors(
  layer: Layer,
  layerPath: string,
  layerPaths: ReadonlyMap<string, string>,
  layersById: ReadonlyMap<string, LayerBase>,
): ValidationError[] {
  const mask = layer.mask;
  if (mask === undefined || !("layer" in mask)) return [];
  const soft = isAlphaMask(mask);
  const path = `${layerPath}.mask.layer`;
  const name = mask.layer;
  if (name === layer.id) return [{ path, message: "a layer cannot be its own mask" }];
  const source = layersById.get(name);
  const sourcePath = layerPaths.get(name);
  if (source === undefined || sourcePath === undefined) {
    return [
      {
        path,
        message: `layer ${JSON.stringify(name)} does not exist in this frame${didYouMean(name, layersById.keys())}`,
      },
    ];
  }
  if (sourcePath.replace(LAST_STEP, "") !== layerPath.replace(LAST_STEP, "")) {
    return [
      {
        path,
        message: `layer ${JSON.stringify(name)} (${sourcePath}) is not beside this layer; a mask layer must be in the same frame or group as the layer it masks`,
      },
    ];
  }
  if (!soft && definitionOf(source).canMask !== true) {
    return [
      {
        path,
        message: `layer ${JSON.stringify(name)} is a ${source.type} layer, which has no outline to mask with (layer types that have one: ${quoteList(OUTLINE_TYPES)})`,
      },
    ];
  }
  return [];
}
