import type { LayerBase } from "./layers/kind.ts";
import { definitionOf } from "./layers/registry.ts";
import type { TemplateDocumentT } from "./schema.ts";

type AnyLayer = {
  type: string;
  font?: { family: string };
  layers?: AnyLayer[];
  /** A repeating stack's "and N more" line is a text layer too. */
  repeat?: { more?: AnyLayer };
};

/** A layer's own layers and its repeat's "more" line, if any. */
const innerLayers = (layer: AnyLayer): AnyLayer[] => [
  ...(layer.layers ?? []),
  ...(layer.repeat?.more === undefined ? [] : [layer.repeat.more]),
];

/**
 * Every font family the document's layers draw text in (each kind's `fontFamilies`), in any frame,
 * group or stack. Whoever supplies fonts
 * beyond the shipped set (the server's render workers, the editor) loads these before drawing.
 */
export function documentFontFamilies(document: TemplateDocumentT): Set<string> {
  const families = new Set<string>();
  const walk = (layers: readonly AnyLayer[]) => {
    for (const layer of layers) {
      // Each kind names the families it draws in (a chart's labels default to Inter without a
      // `font`; a progress bar's label has its own): a host that loads fonts by family must see them all.
      const named = definitionOf(layer as LayerBase).fontFamilies?.(layer as never) ?? [];
      for (const family of named) families.add(family);
      walk(innerLayers(layer));
    }
  };
  for (const frame of document.frames) walk(frame.layers as AnyLayer[]);
  return families;
}

/**
 * A copy of the document whose text layers name other families (`names`: family → name it is
 * registered under in the engine); the document itself when there is nothing to rename. An account's
 * uploaded family is registered under a name of its own, so that two accounts' "Brand Sans" never mix
 * in one engine and a face uploaded later gets a fresh name (the engine caches family lookups).
 */
export function renameFontFamilies(
  document: TemplateDocumentT,
  names: ReadonlyMap<string, string>,
): TemplateDocumentT {
  if (names.size === 0) return document;
  const copy = structuredClone(document);
  const walk = (layers: AnyLayer[]) => {
    for (const layer of layers) {
      const renamed = layer.font ? names.get(layer.font.family) : undefined;
      if (layer.font && renamed) layer.font.family = renamed;
      walk(innerLayers(layer));
    }
  };
  for (const frame of copy.frames) walk(frame.layers as AnyLayer[]);
  return copy;
}

/** Warning messages name the family the template used, not the name it was registered under. */
export function restoreFontFamilyNames(message: string, familyOf: ReadonlyMap<string, string>): string {
  let out = message;
  for (const [name, family] of familyOf) out = out.replaceAll(name, family);
  return out;
}
