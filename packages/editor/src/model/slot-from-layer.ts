import type { Layer, SlotT, TemplateDocumentT } from "../engine/engine-types.ts";
import { findLayer, updateLayer } from "./doc-ops.ts";

type Doc = TemplateDocumentT;

/** `fill.stops[1].color` -> ["fill", "stops", "1", "color"]. */
function pathParts(prop: string): string[] {
  return prop.split(/[.[\]]+/).filter((p) => p !== "");
}

/** The layer's own value at a bindable property path (`text`, `src`, `stroke.color`, `fill.stops[1].color`). */
export function valueAtPath(layer: Layer, prop: string): unknown {
  let v: unknown = layer;
  for (const part of pathParts(prop)) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

const MARKUP = /<(b|i|u|s|br|color)\b[^>]*>/i;

/** A slot name from the layer's name or id: letters, digits, `_` and `-`, starting with a letter or `_`. */
function baseName(layer: Layer, prop: string, doc: Doc): string {
  const raw = (layer.name ?? layer.id).normalize("NFKD").replace(/[^A-Za-z0-9_-]+/g, "_");
  const trimmed =
    raw
      .replace(/^[^A-Za-z_]+/, "")
      .replace(/_+$/, "")
      .slice(0, 48) || "slot";
  const taken = new Set(doc.slots.map((s) => s.name));
  const main = pathParts(prop).length === 1 && ["text", "src", "fill", "value"].includes(prop);
  const first = main ? trimmed : `${trimmed}_${pathParts(prop).join("_")}`.slice(0, 60);
  if (!taken.has(first)) return first;
  for (let n = 2; ; n++) if (!taken.has(`${first}${n}`)) return `${first}${n}`;
}

/** A new slot of this type whose default is the layer's current content at `prop`, when that is a valid default. */
function slotFor(name: string, type: SlotT["type"], value: unknown): SlotT {
  if (type === "text") {
    const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : undefined;
    if (text === undefined || text.length > 10_000) return { name, type };
    return MARKUP.test(text) ? { name, type, default: text, rich: true } : { name, type, default: text };
  }
  if (type === "image")
    return typeof value === "string" && value !== "" && value.length <= 2048
      ? { name, type, default: value }
      : { name, type };
  if (type === "color")
    return typeof value === "string" && /^#[0-9A-Fa-f]{6}$/.test(value)
      ? { name, type, default: value.toUpperCase() }
      : { name, type };
  if (type === "number") return typeof value === "number" ? { name, type, default: value } : { name, type };
  return { name, type } as SlotT;
}

/**
 * "New slot from this layer": a slot named after the layer, of the property's type, whose default
 * is what the layer shows now (so the design looks the same), and the property bound to it; one
 * change of the document. Null when the layer is not in that frame.
 */
export function slotFromLayer(
  doc: Doc,
  frameIndex: number,
  layerId: string,
  prop: string,
  type: SlotT["type"],
): { doc: Doc; slot: string } | null {
  const frame = doc.frames[frameIndex];
  const layer = frame ? findLayer(frame.layers as Layer[], layerId) : null;
  if (!layer) return null;
  const name = baseName(layer, prop, doc);
  const slot = slotFor(name, type, valueAtPath(layer, prop));
  const withSlot = { ...doc, slots: [...doc.slots, slot] };
  return {
    doc: updateLayer(withSlot, frameIndex, layerId, (l) => ({
      ...l,
      bind: { ...(l.bind ?? {}), [prop]: name },
    })),
    slot: name,
  };
}
