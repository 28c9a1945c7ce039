import type { Layer } from "../engine/engine-types.ts";

/**
 * The one place the editor knows which layers contain others (groups and stacks). Walking, finding,
 * renaming and the layers panel go through these two functions instead of testing layer types, so a
 * new container kind is a change here only.
 */

const CONTAINERS: ReadonlySet<string> = new Set(["group", "stack"]);

/** The layer's children, or null when it holds none. */
export function childLayers(layer: Layer): readonly Layer[] | null {
  const inner = (layer as { layers?: unknown }).layers;
  return CONTAINERS.has(layer.type) && Array.isArray(inner) ? (inner as Layer[]) : null;
}

/** A copy of a container layer with other children (the layer itself when it holds none). */
export function withChildLayers(layer: Layer, children: readonly Layer[]): Layer {
  return childLayers(layer) === null ? layer : ({ ...layer, layers: children } as Layer);
}

/** Every layer at any depth, parents before their children. */
export function* eachLayer(layers: readonly Layer[]): Generator<Layer> {
  for (const layer of layers) {
    yield layer;
    const inner = childLayers(layer);
    if (inner) yield* eachLayer(inner);
  }
}
