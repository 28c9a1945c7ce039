import type { ListItemValue } from "../api.ts";
import type { PaintT } from "../document/common.ts";
import { DUOTONE_BINDABLE } from "../document/layers/image-filters.ts";
import { definitionOf } from "../document/layers/registry.ts";
import type { StackLayerT } from "../document/layers/stack.ts";
import { ITEM_PREFIX } from "../document/repeat.ts";
import type { Layer } from "../document/schema.ts";
import { isRecord } from "../document/validate-paths.ts";
import type { ValueFormatT } from "../document/value-format.ts";
import { formatNumber } from "../format/format-value.ts";
import type { Bindings } from "./bindings.ts";
import { applyColorBinding, noteCopiedColorBindings } from "./color-bindings.ts";
import { designColorOf } from "./paint.ts";

/**
 * Marks the layers a repeat makes (each item's copies, the "more" line): nothing in them is bound any
 * more, yet what they show comes from the request's values. A symbol key, so copies of them (spread by
 * layout) keep it and their JSON does not show it.
 */
const FROM_VALUES = Symbol("from list values");

/** Whether a layer was made from a list slot's items in this render (see FROM_VALUES). */
export function madeFromValues(layer: object): boolean {
  return (layer as { [FROM_VALUES]?: true })[FROM_VALUES] === true;
}

/** One child a container draws in this render, with the JSON path errors and warnings name. */
export interface ChildEntry {
  layer: Layer;
  path: string;
}

/**
 * A stack's children in this render: as designed, or with a `repeat` one copy of them per item of
 * the list (at most `max`), then the "more" line when items were left out. Each copy is an ordinary
 * layer with its `item.<field>` bindings replaced by the item's values (a field the item lacks leaves
 * the design value), so everything downstream (layout, painting, images, value checks) sees plain
 * layers. A copy keeps its template's JSON path.
 */
export function stackChildren(layer: StackLayerT, path: string, bindings: Bindings): ChildEntry[] {
  const repeat = layer.repeat;
  if (repeat === undefined) return templateOf(layer, path);
  // Asked every time: the slot's default used is a warning of this render.
  const items = bindings.list({ items: repeat.slot }, "items", [], `${path}.repeat.slot`, layer.id).value;
  let byLayer = expansions.get(items);
  if (byLayer === undefined) {
    byLayer = new WeakMap();
    expansions.set(items, byLayer);
  }
  // By the stack's children: a stack sized to its content is drawn as a copy of the designed one.
  const known = byLayer.get(layer.layers);
  if (
    known !== undefined &&
    known.repeat === repeat &&
    known.path === path &&
    known.locale === bindings.locale &&
    sameContent(known.content, items)
  )
    return known.entries;
  const entries = expand(repeat, templateOf(layer, path), path, items, bindings);
  byLayer.set(layer.layers, { repeat, path, locale: bindings.locale, content: contentOf(items), entries });
  return entries;
}

/** The items' fields in order, names and values (all plain values): a list changed in place no longer matches. */
function contentOf(items: readonly ListItemValue[]): unknown[] {
  const content: unknown[] = [items.length];
  for (const item of items) {
    const keys = Object.keys(item);
    content.push(keys.length);
    for (const key of keys) content.push(key, item[key]);
  }
  return content;
}

function sameContent(content: readonly unknown[], items: readonly ListItemValue[]): boolean {
  if (content[0] !== items.length) return false;
  let at = 1;
  for (const item of items) {
    const keys = Object.keys(item);
    if (content[at++] !== keys.length) return false;
    for (const key of keys) {
      if (content[at++] !== key || content[at++] !== item[key]) return false;
    }
  }
  return true;
}

/**
 * A repeat's copies by the list they were made from (the request's items array, or the slot's
 * default) and the stack: the renderer's value check, its image plan and the drawing each list a
 * repeated stack's children, and making 12 rows of copies (numbers formatted) three times cost about
 * a third of a millisecond a render. The copies are a function of the stack, its path, the items and
 * the template's locale only, and nothing downstream changes them (layout places copies of them).
 * A host may change a list in place between renders: the items' fields are compared too.
 */
const expansions = new WeakMap<
  readonly ListItemValue[],
  WeakMap<
    readonly Layer[],
    {
      repeat: NonNullable<StackLayerT["repeat"]>;
      path: string;
      locale: string | undefined;
      content: unknown[];
      entries: ChildEntry[];
    }
  >
>();

function templateOf(layer: StackLayerT, path: string): ChildEntry[] {
  return layer.layers.map((child, i) => ({ layer: child, path: `${path}.layers[${i}]` }));
}

function expand(
  repeat: NonNullable<StackLayerT["repeat"]>,
  template: readonly ChildEntry[],
  path: string,
  items: readonly ListItemValue[],
  bindings: Bindings,
): ChildEntry[] {
  const shown = items.slice(0, repeat.max ?? items.length);
  const entries: ChildEntry[] = [];
  shown.forEach((item, index) => {
    const scoped = bindings.forItem(repeat.slot, item, index);
    for (const { layer: child, path: childPath } of template) {
      entries.push({ layer: withItem(child, item, index, scoped), path: childPath });
    }
  });
  const left = items.length - shown.length;
  if (left > 0 && repeat.more !== undefined) {
    const count = formatNumber(left, {}, bindings.locale);
    entries.push({
      layer: {
        ...repeat.more,
        text: repeat.more.text.replaceAll("{n}", count),
        [FROM_VALUES]: true,
      } as Layer,
      path: `${path}.repeat.more`,
    });
  }
  return entries;
}

/** A copy of a layer (and its children) for one item: `item.<field>` bindings become design values. */
function withItem(layer: Layer, item: ListItemValue, index: number, scoped: Bindings): Layer {
  const copy: Record<string | symbol, unknown> = {
    ...layer,
    id: `${layer.id}~${index + 1}`,
    [FROM_VALUES]: true,
  };
  const bind = layer.bind;
  if (bind !== undefined) {
    const kept: Record<string, string> = {};
    for (const [property, reference] of Object.entries(bind)) {
      if (!reference.startsWith(ITEM_PREFIX)) {
        kept[property] = reference;
        continue;
      }
      const field = reference.slice(ITEM_PREFIX.length);
      if (!Object.hasOwn(item, field)) continue;
      const value = shown(item[field] as string | number, valueAt(layer, property), layer, scoped);
      setAt(copy, property, isBoundPaint(layer, property) ? itemColor(layer, property, value) : value);
    }
    if (Object.keys(kept).length > 0) {
      copy.bind = kept;
      noteCopiedColorBindings(kept, layer.bind_colors);
    } else delete copy.bind;
  }
  const condition = layer.visible_when;
  if (condition?.slot.startsWith(ITEM_PREFIX)) {
    delete copy.visible_when;
    if (!scoped.holds(condition)) copy.visible = false;
  }
  if (Array.isArray(copy.layers)) {
    copy.layers = (copy.layers as Layer[]).map((child) => withItem(child, item, index, scoped));
  }
  return copy as unknown as Layer;
}

/** `fill.stops[1].color`: one stop of a gradient paint. */
const STOP_COLOR = /^(.+)\.stops\[\d+\]\.color$/;

/**
 * Whether a property is a paint (or a gradient stop of one) the painters bind through resolvePaint,
 * which applies `bind_colors`; duotone colours take the slot's colour as given.
 */
function isBoundPaint(layer: Layer, property: string): boolean {
  const { bindable, paints = [] } = definitionOf(layer);
  const stop = STOP_COLOR.exec(property);
  if (stop?.[1] !== undefined && paints.includes(stop[1])) return true;
  return bindable[property] === "color" && !Object.hasOwn(DUOTONE_BINDABLE, property);
}

/** An item's colour where a copy shows it, as a slot's colour is applied there (alpha and tint). */
function itemColor(layer: Layer, property: string, value: string | number): string | number {
  if (typeof value !== "string") return value;
  const design = (valueAt(layer, property) ?? null) as PaintT | null;
  return applyColorBinding(layer.bind, property, value, designColorOf(design));
}

/**
 * A number where the design has text goes through the layer's `format` (a text layer's), else as
 * JavaScript writes it; anything else is set as it is.
 */
function shown(value: string | number, design: unknown, layer: Layer, scoped: Bindings): string | number {
  if (typeof value === "string" || typeof design !== "string") return value;
  const format = (layer as { format?: ValueFormatT }).format;
  return format === undefined ? String(value) : formatNumber(value, format, scoped.locale);
}

function valueAt(layer: Layer, property: string): unknown {
  let node: unknown = layer;
  for (const step of property.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== "")) {
    node = Array.isArray(node) ? node[Number(step)] : isRecord(node) ? node[step] : undefined;
  }
  return node;
}

/** Sets a property path (`text`, `stroke.color`, `fill.stops[1].color`) on a copy, copying what it passes. */
function setAt(target: Record<string, unknown>, property: string, value: unknown): void {
  const steps = property.split(/\.|\[(\d+)\]/).filter((step) => step !== undefined && step !== "");
  let node: Record<string, unknown> | unknown[] = target;
  steps.forEach((step, i) => {
    const key = /^\d+$/.test(step) && Array.isArray(node) ? Number(step) : step;
    if (i === steps.length - 1) {
      (node as Record<string | number, unknown>)[key] = value;
      return;
    }
    const next = (node as Record<string | number, unknown>)[key];
    const copied = Array.isArray(next) ? [...next] : isRecord(next) ? { ...next } : {};
    (node as Record<string | number, unknown>)[key] = copied;
    node = copied;
  });
}
