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
  layers.forEach((layer, index) => {
    if (!isDrawn(layer, bindings)) return;
    const layerPath = `${path}.layers[${index}]`;
    visit(layer, layerPath);
    const children = kindOf(layer).children?.(layer);
    if (children) forEachDrawnLayer(children as Layer[], layerPath, bindings, visit);
  });
}
