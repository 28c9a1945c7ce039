import type { FrameT, Layer, SlotT, TemplateDocumentT } from "../engine/engine-types.ts";

/** Immutable edits of a template document: each returns a new document sharing untouched parts. */

export type Doc = TemplateDocumentT;

export function findLayer(layers: readonly Layer[], id: string): Layer | null {
  for (const layer of layers) {
    if (layer.id === id) return layer;
    if (layer.type === "group") {
      const inner = findLayer(layer.layers as Layer[], id);
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
    } else if (layer.type === "group") {
      out.push({ ...layer, layers: mapLayers(layer.layers as Layer[], id, fn) } as Layer);
    } else {
      out.push(layer);
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

export function allLayerIds(doc: Doc): Set<string> {
  const ids = new Set<string>();
  const walk = (layers: readonly Layer[]) => {
    for (const l of layers) {
      ids.add(l.id);
      if (l.type === "group") walk(l.layers as Layer[]);
    }
  };
  for (const f of doc.frames) walk(f.layers as Layer[]);
  return ids;
}

export function uniqueId(doc: Doc, base: string): string {
  const ids = allLayerIds(doc);
  for (let n = 1; ; n++) {
    const id = `${base}-${n}`;
    if (!ids.has(id)) return id;
  }
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
    return layers.map((l) =>
      l.type === "group" ? ({ ...l, layers: reorder(l.layers as Layer[]) } as Layer) : l,
    );
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
  const newId = uniqueId(doc, layer.type);
  const copy = { ...structuredClone(layer), id: newId, x: layer.x + 20, y: layer.y + 20 } as Layer;
  if (copy.type === "group") {
    let n = 0;
    const rename = (ls: Layer[]): Layer[] =>
      ls.map((l) => {
        n++;
        const renamed = { ...l, id: `${newId}-${n}` } as Layer;
        return renamed.type === "group"
          ? ({ ...renamed, layers: rename(renamed.layers as Layer[]) } as Layer)
          : renamed;
      });
    copy.layers = rename(copy.layers as Layer[]) as typeof copy.layers;
  }
  const next = updateFrame(doc, frameIndex, (f) => {
    const layers = (f.layers as Layer[]).slice();
    const at = layers.findIndex((l) => l.id === id);
    layers.splice(at >= 0 ? at + 1 : layers.length, 0, copy);
    return { ...f, layers };
  });
  return { doc: next, id: newId };
}

export type NewLayerKind = "text" | "image" | "rectangle" | "ellipse";

export function newLayer(doc: Doc, frame: FrameT, kind: NewLayerKind, at?: { x: number; y: number }): Layer {
  const w = Math.round(Math.min(frame.width * 0.4, 480));
  const h =
    kind === "text"
      ? Math.round(Math.min(frame.height * 0.2, 120))
      : Math.round(Math.min(frame.height * 0.3, 320));
  const x = Math.round(at ? at.x - w / 2 : (frame.width - w) / 2);
  const y = Math.round(at ? at.y - h / 2 : (frame.height - h) / 2);
  const base = { x, y, width: w, height: h };
  switch (kind) {
    case "text":
      return {
        id: uniqueId(doc, "text"),
        type: "text",
        ...base,
        text: "Your headline",
        font: { family: "Inter", weight: 700, size: 48 },
        color: "#111827",
      };
    case "image":
      return { id: uniqueId(doc, "image"), type: "image", ...base, src: "", fit: "cover" };
    case "rectangle":
      return { id: uniqueId(doc, "rect"), type: "shape", shape: "rectangle", ...base, fill: "#6366F1" };
    case "ellipse":
      return { id: uniqueId(doc, "ellipse"), type: "shape", shape: "ellipse", ...base, fill: "#F59E0B" };
  }
}

export function addLayer(doc: Doc, frameIndex: number, layer: Layer): Doc {
  return updateFrame(doc, frameIndex, (f) => ({ ...f, layers: [...(f.layers as Layer[]), layer] }));
}

export function blankDocument(key: string, name: string): Doc {
  return {
    version: 2,
    key,
    name,
    slots: [],
    frames: [{ name: "main", width: 1200, height: 630, background: "#FFFFFF", layers: [] }],
  };
}

/** Slot types a layer property may bind to. */
export function bindableProps(layer: Layer | null): { prop: string; type: SlotT["type"] }[] {
  if (!layer) return [{ prop: "background", type: "color" }];
  switch (layer.type) {
    case "text":
      return [
        { prop: "text", type: "text" },
        { prop: "color", type: "color" },
      ];
    case "image":
      return [{ prop: "src", type: "image" }];
    case "shape":
      return [
        { prop: "fill", type: "color" },
        { prop: "stroke.color", type: "color" },
      ];
    default:
      return [];
  }
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
      return next.type === "group" ? ({ ...next, layers: walk(next.layers as Layer[]) } as Layer) : next;
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
