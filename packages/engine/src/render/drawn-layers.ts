import type { LayerBase } from "../document/layers/kind.ts";
import type { Layer } from "../document/schema.ts";
import { hugsContent } from "./arrange.ts";
import type { Bindings } from "./bindings.ts";
import { kindOf } from "./painters/registry.ts";

// Which layers a render draws depends on their kinds (the painters' registry); kept apart from
// geometry.ts, which painters use, so that no painter loads the registry that loads it.

/**
 * Whether a layer draws anything at all: hidden, fully transparent and condition-failing
 * (`visible_when`) layers are skipped (children too), and so are empty boxes, except a container's
 * (a group's box only sets its rotation centre). `bindings` is null where no slot values are known.
 */
export function isDrawn(layer: Layer, bindings: Bindings | null): boolean {
  if (layer.visible === false || (layer.opacity ?? 1) <= 0) return false;
  if (layer.visible_when !== undefined && bindings !== null && !bindings.holds(layer.visible_when))
    return false;
  const kind = kindOf(layer);
  return (
    kind.children !== undefined ||
    kind.drawsWithoutArea === true ||
    (layer.width > 0 && layer.height > 0) ||
    hugsContent(layer)
  );
}

/** Calls `visit` for every drawn layer, depth first, in paint order, with its JSON path. */
export function forEachDrawnLayer(
  layers: readonly Layer[],
  path: string,
  bindings: Bindings | null,
  visit: (layer: Layer, path: string) => void,
): void {
  walk(childEntries(layers, path), bindings, visit);
}

type Entry = { readonly layer: LayerBase; readonly path: string };

const childEntries = (layers: readonly LayerBase[], path: string): Entry[] =>
  layers.map((layer, index) => ({ layer, path: `${path}.layers[${index}]` }));

function walk(
  entries: readonly Entry[],
  bindings: Bindings | null,
  visit: (layer: Layer, path: string) => void,
) {
  for (const { layer, path } of entries) {
    if (!isDrawn(layer as Layer, bindings)) continue;
    visit(layer as Layer, path);
    const kind = kindOf(layer);
    // A container whose children follow the values (a repeat) lists them itself when values are known.
    if (kind.drawnChildren !== undefined && bindings !== null)
      walk(kind.drawnChildren(layer, path, bindings), bindings, visit);
    else {
      const children = kind.children?.(layer);
      if (children) walk(childEntries(children, path), bindings, visit);
    }
  }
}
