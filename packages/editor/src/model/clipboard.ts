import type { Layer, SlotT } from "../engine/engine-types.ts";
import { allLayerIds, type Doc, updateFrame } from "./doc-ops.ts";
import { childLayers, eachLayer, withChildLayers } from "./layer-tree.ts";

/**
 * What copy puts on the clipboard: document JSON (layers exactly as in the document, with the
 * slots they are bound to), so a paste into another frame or another template keeps every
 * property and binding. Pure; the browser side is clipboard-io.ts.
 */
export interface ClipboardPayload {
  pictor: "layers";
  version: 2;
  layers: Layer[];
  slots: SlotT[];
}

/** The selected layers in drawing order (a layer inside a copied group comes with it). */
export function copyPayload(doc: Doc, frameIndex: number, ids: readonly string[]): ClipboardPayload | null {
  const frame = doc.frames[frameIndex];
  if (!frame) return null;
  const wanted = new Set(ids);
  const layers: Layer[] = [];
  const walk = (list: readonly Layer[]) => {
    for (const l of list) {
      if (wanted.has(l.id)) layers.push(structuredClone(l));
      else {
        const children = childLayers(l);
        if (children) walk(children);
      }
    }
  };
  walk(frame.layers as Layer[]);
  if (layers.length === 0) return null;
  const bound = new Set<string>();
  for (const l of eachLayer(layers)) for (const slot of Object.values(l.bind ?? {})) bound.add(slot);
  const slots = doc.slots.filter((s) => bound.has(s.name)).map((s) => structuredClone(s));
  return { pictor: "layers", version: 2, layers, slots };
}

export function serialisePayload(payload: ClipboardPayload): string {
  return JSON.stringify(payload);
}

/** The payload in clipboard text, or null when the text is something else. */
export function parsePayload(text: string | null | undefined): ClipboardPayload | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<ClipboardPayload>;
    if (value?.pictor !== "layers" || !Array.isArray(value.layers) || value.layers.length === 0) return null;
    return {
      pictor: "layers",
      version: 2,
      layers: value.layers,
      slots: Array.isArray(value.slots) ? value.slots : [],
    };
  } catch {
    return null;
  }
}

/**
 * Adds the payload's layers on top of a frame. Ids already used in the document get fresh ones
 * (`<id>-copy`, `-copy2`…); slots the layers are bound to are added when the document has none of
 * that name, and a binding to a same-named slot of another type is dropped. Returns the new
 * top-level ids.
 */
export function pastePayload(
  doc: Doc,
  frameIndex: number,
  payload: ClipboardPayload,
): { doc: Doc; ids: string[] } {
  if (!doc.frames[frameIndex]) return { doc, ids: [] };
  const used = allLayerIds(doc);
  const fresh = (id: string) => {
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
    for (let n = 1; ; n++) {
      const candidate = `${id.slice(0, 56)}-copy${n === 1 ? "" : n}`;
      if (!used.has(candidate)) {
        used.add(candidate);
        return candidate;
      }
    }
  };
  const slots = doc.slots.slice();
  for (const s of payload.slots) if (!slots.some((t) => t.name === s.name)) slots.push(structuredClone(s));
  const typeOf = new Map(slots.map((s) => [s.name, s.type]));
  const wantedType = new Map(payload.slots.map((s) => [s.name, s.type]));
  const fix = (l: Layer): Layer => {
    const next = { ...structuredClone(l), id: fresh(l.id) } as Layer;
    if (next.bind) {
      const bind: Record<string, string> = {};
      for (const [path, slot] of Object.entries(next.bind))
        if (typeOf.has(slot) && (!wantedType.has(slot) || wantedType.get(slot) === typeOf.get(slot)))
          bind[path] = slot;
      if (Object.keys(bind).length > 0) next.bind = bind;
      else delete next.bind;
    }
    const children = childLayers(next);
    return children ? withChildLayers(next, children.map(fix)) : next;
  };
  const added = payload.layers.map(fix);
  const next = updateFrame({ ...doc, slots }, frameIndex, (f) => ({
    ...f,
    layers: [...(f.layers as Layer[]), ...added],
  }));
  return { doc: next, ids: added.map((l) => l.id) };
}
