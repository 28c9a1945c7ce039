import type { FrameT, Layer, TemplateDocumentT } from "../engine/engine-types.ts";
import { childLayers, eachLayer, withChildLayers } from "./layer-tree.ts";

/** Immutable edits of a template document: each returns a new document sharing untouched parts. */

export type Doc = TemplateDocumentT;

export function findLayer(layers: readonly Layer[], id: string): Layer | null {
  for (const layer of layers) {
    if (layer.id === id) return layer;
    const children = childLayers(layer);
    if (children) {
      const inner = findLayer(children, id);
      if (inner) return inner;
    }
  }
  return null;
}

function mapLayers(layers: readonly Layer[], id: string, fn: (layer: Layer) => Layer | null): Layer[] {
  const out: Layer[] = [];
  for (const layer of layers) {
    if (layer.id === id) {
      const next = fn(layer);
      if (next) out.push(next);
    } else {
      const children = childLayers(layer);
      out.push(children ? withChildLayers(layer, mapLayers(children, id, fn)) : layer);
    }
  }
  return out;
}

export function updateFrame(doc: Doc, frameIndex: number, fn: (frame: FrameT) => FrameT): Doc {
  return { ...doc, frames: doc.frames.map((f, i) => (i === frameIndex ? fn(f) : f)) };
}

export function updateLayer(doc: Doc, frameIndex: number, id: string, fn: (layer: Layer) => Layer): Doc {
  return updateFrame(doc, frameIndex, (f) => ({ ...f, layers: mapLayers(f.layers as Layer[], id, fn) }));
}

export function removeLayer(doc: Doc, frameIndex: number, id: string): Doc {
  return updateFrame(doc, frameIndex, (f) => ({
    ...f,
    layers: mapLayers(f.layers as Layer[], id, () => null),
  }));
}

/** A copy without the keys whose value is undefined (a cleared optional property leaves the JSON). */
export function stripUndefined<T extends object>(value: T): T {
  const out = { ...value } as Record<string, unknown>;
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as T;
}

export function allLayerIds(doc: Doc): Set<string> {
  const ids = new Set<string>();
  for (const f of doc.frames) for (const l of eachLayer(f.layers)) ids.add(l.id);
  return ids;
}

export function uniqueId(doc: Doc, base: string): string {
  const ids = allLayerIds(doc);
  for (let n = 1; ; n++) {
    const id = `${base}-${n}`;
    if (!ids.has(id)) return id;
  }
}

/** The base of a layer id: `rect-1` -> `rect`, `logo` -> `logo`. */
export function idBaseOf(id: string): string {
  return /^(.+?)-\d+$/.exec(id)?.[1] ?? id;
}

export function uniqueFrameName(doc: Doc, base: string): string {
  const names = new Set(doc.frames.map((f) => f.name));
  if (!names.has(base)) return base;
  for (let n = 2; ; n++) if (!names.has(`${base}-${n}`)) return `${base}-${n}`;
}

export function uniqueSlotName(doc: Doc, base: string): string {
  const names = new Set(doc.slots.map((s) => s.name));
  for (let n = 1; ; n++) if (!names.has(`${base}${n}`)) return `${base}${n}`;
}

/** Top-level layer order within its parent list: +1 brings forward (drawn later), -1 sends back. */
export function moveLayer(doc: Doc, frameIndex: number, id: string, delta: number): Doc {
  const reorder = (layers: Layer[]): Layer[] => {
    const i = layers.findIndex((l) => l.id === id);
    if (i >= 0) {
      const j = Math.max(0, Math.min(layers.length - 1, i + delta));
      const copy = layers.slice();
      const [taken] = copy.splice(i, 1);
      if (taken) copy.splice(j, 0, taken);
      return copy;
    }
    return layers.map((l) => {
      const children = childLayers(l);
      return children ? withChildLayers(l, reorder(children.slice())) : l;
    });
  };
  return updateFrame(doc, frameIndex, (f) => ({ ...f, layers: reorder(f.layers as Layer[]) }));
}

/** Moves a layer to position `to` of its frame's top-level list (layers panel drag and drop). */
export function placeLayer(doc: Doc, frameIndex: number, id: string, to: number): Doc {
  return updateFrame(doc, frameIndex, (f) => {
    const layers = (f.layers as Layer[]).slice();
    const from = layers.findIndex((l) => l.id === id);
    if (from < 0) return f;
    const [taken] = layers.splice(from, 1);
    if (taken) layers.splice(Math.max(0, Math.min(layers.length, to)), 0, taken);
    return { ...f, layers };
  });
}

export function duplicateLayer(doc: Doc, frameIndex: number, id: string): { doc: Doc; id: string | null } {
  const frame = doc.frames[frameIndex];
  const layer = frame ? findLayer(frame.layers as Layer[], id) : null;
  if (!frame || !layer) return { doc, id: null };
  // Named after the original: rect-1 gives rect-2 (its base and the next free number).
  const newId = uniqueId(doc, idBaseOf(layer.id));
  // A deep copy keeps every property of the layer's kind (gradients, shadows, masks, unknown ones).
  let n = 0;
  const rename = (ls: readonly Layer[]): Layer[] =>
    ls.map((l) => {
      n++;
      const renamed = { ...l, id: `${newId}-${n}` } as Layer;
      const children = childLayers(renamed);
      return children ? withChildLayers(renamed, rename(children)) : renamed;
    });
  const clone = { ...structuredClone(layer), id: newId, x: layer.x + 20, y: layer.y + 20 } as Layer;
  const children = childLayers(clone);
  const copy = children ? withChildLayers(clone, rename(children)) : clone;
  const next = updateFrame(doc, frameIndex, (f) => {
    const layers = (f.layers as Layer[]).slice();
    const at = layers.findIndex((l) => l.id === id);
    layers.splice(at >= 0 ? at + 1 : layers.length, 0, copy);
    return { ...f, layers };
  });
  return { doc: next, id: newId };
}

export function addLayer(doc: Doc, frameIndex: number, layer: Layer): Doc {
  return updateFrame(doc, frameIndex, (f) => ({ ...f, layers: [...(f.layers as Layer[]), layer] }));
}

export function blankDocument(key: string, name: string): Doc {
  return {
    version: 4,
    key,
    name,
    slots: [],
    frames: [{ name: "main", width: 1200, height: 630, background: "#FFFFFF", layers: [] }],
  };
}

/** Removes bindings to a slot that no longer exists (a renamed or deleted slot). */
export function renameBindings(doc: Doc, from: string, to: string | null): Doc {
  const fix = (bind: Record<string, string> | undefined) => {
    if (!bind) return bind;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(bind)) {
      if (v !== from) out[k] = v;
      else if (to !== null) out[k] = to;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const walk = (layers: Layer[]): Layer[] =>
    layers.map((l) => {
      const bind = fix(l.bind);
      const next = { ...l } as Layer;
      if (bind) next.bind = bind;
      else delete next.bind;
      const children = childLayers(next);
      return children ? withChildLayers(next, walk(children.slice())) : next;
    });
  const sample = doc.sample ? { ...doc.sample } : undefined;
  if (sample && from in sample) {
    const v = sample[from] as string;
    delete sample[from];
    if (to !== null) sample[to] = v;
  }
  return {
    ...doc,
    ...(sample ? { sample } : {}),
    frames: doc.frames.map((f) => {
      const bind = fix(f.bind);
      const next: FrameT = { ...f, layers: walk(f.layers as Layer[]) };
      if (bind) next.bind = bind;
      else delete next.bind;
      return next;
    }),
  };
}
