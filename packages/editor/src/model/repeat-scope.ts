import type { Layer, ListSlotT, TemplateDocumentT } from "../engine/engine-types.ts";
import { childLayers } from "./layer-tree.ts";

/**
 * The list slot whose items a layer is repeated for: that of the nearest repeating stack around it
 * (its `item.<field>` bindings read that list's fields), or null outside any repeat.
 */
export function repeatListOf(doc: TemplateDocumentT, layers: readonly Layer[], id: string): ListSlotT | null {
  const found = search(layers, id, null, doc);
  return found === undefined ? null : found;
}

function search(
  layers: readonly Layer[],
  id: string,
  list: ListSlotT | null,
  doc: TemplateDocumentT,
): ListSlotT | null | undefined {
  for (const layer of layers) {
    if (layer.id === id) return list;
    const children = childLayers(layer);
    if (!children) continue;
    const repeat = (layer as { repeat?: { slot: string } }).repeat;
    const slot = repeat === undefined ? undefined : doc.slots.find((s) => s.name === repeat.slot);
    const inner = search(children, id, slot?.type === "list" ? slot : list, doc);
    if (inner !== undefined) return inner;
  }
  return undefined;
}
