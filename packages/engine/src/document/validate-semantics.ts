import { inlineStyleErrors, inlineStyleNames } from "./inline-styles.ts";
import type { LayerBase } from "./layers/kind.ts";
import { definitionOf, LAYER_DEFINITIONS } from "./layers/registry.ts";
import { printSizeErrors } from "./print.ts";
import { ITEM_PREFIX, type RepeatT } from "./repeat.ts";
import { markupError, parseRichText } from "./rich-text.ts";
import type { FrameT, Layer, ListSlotT, SlotT, SlotType, TemplateDocumentT } from "./schema.ts";
import { maskErrors } from "./validate-masks.ts";
import { didYouMean, isRecord, joinPath, quoteList, type ValidationError } from "./validate-paths.ts";
import { localeError } from "./value-format.ts";
import { slotValueProblems, validateSlotValues } from "./values.ts";

/** Groups inside groups, at most. The renderer recurses per level; real designs use 2 or 3. */
export const MAX_GROUP_DEPTH = 32;

/** A frame's bindable properties and paints (its background). */
const FRAME = { bindable: { background: "color" } as Record<string, SlotType>, paints: ["background"] };

/** Which slot type each bindable property takes, per layer kind and for frames (from the registry). */
export const BINDABLE_PROPERTIES: Readonly<Record<string, Readonly<Record<string, SlotType>>>> = {
  ...Object.fromEntries(LAYER_DEFINITIONS.map((kind) => [kind.type, kind.bindable])),
  frame: FRAME.bindable,
};

// `fill.stops[1].color`: the colour of one stop of a gradient paint.
const STOP_BINDING = /^(.+)\.stops\[(0|[1-9][0-9]?)\]\.color$/;

/**
 * Rules JSON Schema cannot express, run on a document that already matches the schema: names that
 * must be unique, bindings that must point at an existing slot of the right type, gradient stops in
 * order, defaults and samples that must be valid values, and each layer kind's own rules.
 */
export function semanticErrors(doc: TemplateDocumentT): ValidationError[] {
  const errors: ValidationError[] = [];
  const slots = new Map<string, SlotT>();
  const slotPaths = new Map<string, string>();

  doc.slots.forEach((slot, i) => {
    const path = joinPath("slots", i);
    const first = slotPaths.get(slot.name);
    if (first !== undefined) {
      errors.push({
        path: `${path}.name`,
        message: `duplicate slot name ${JSON.stringify(slot.name)} (first at ${first})`,
      });
      return;
    }
    slots.set(slot.name, slot);
    slotPaths.set(slot.name, path);
    if (slot.type === "text" && slot.default !== undefined && slot.rich === true) {
      const markup = parseRichText(slot.default, inlineStyleNames(doc));
      if (!markup.ok) errors.push({ path: `${path}.default`, message: markupError(markup) });
    }
    if (
      (slot.type === "number" || slot.type === "date" || slot.type === "list") &&
      slot.default !== undefined
    ) {
      for (const { at, message } of slotValueProblems(slot, slot.default)) {
        errors.push({ path: `${path}.default${at}`, message });
      }
    }
    if (slot.type === "number" && slot.min !== undefined && slot.max !== undefined && slot.min > slot.max) {
      errors.push({ path: `${path}.max`, message: `must be at least the slot's min (${slot.min})` });
    }
    if (slot.type === "list") checkListFields(slot, path, errors);
    if (slot.type === "text" && slot.default !== undefined && slot.max_length !== undefined) {
      if ([...slot.default].length > slot.max_length) {
        errors.push({
          path: `${path}.default`,
          message: `must be at most ${slot.max_length} characters (the slot's max_length)`,
        });
      }
    }
  });

  const framePaths = new Map<string, string>();
  doc.frames.forEach((frame, i) => {
    const path = joinPath("frames", i);
    const first = framePaths.get(frame.name);
    if (first !== undefined) {
      errors.push({
        path: `${path}.name`,
        message: `duplicate frame name ${JSON.stringify(frame.name)} (first at ${first})`,
      });
    } else framePaths.set(frame.name, path);
    checkFrame(frame, path, slots, inlineStyleNames(doc), errors);
  });

  for (const error of inlineStyleErrors(doc.inline_styles, (name) => slots.get(name)?.type))
    errors.push(error);
  if (doc.sample !== undefined) {
    const sample = validateSlotValues(doc, doc.sample, "sample");
    if (!sample.ok) for (const { path, message } of sample.errors) errors.push({ path, message });
  }
  if (doc.palette !== undefined) checkPalette(doc.palette, errors);
  const locale = doc.locale === undefined ? null : localeError(doc.locale, "locale");
  if (locale !== null) errors.push(locale);
  return errors;
}

/** A list's fields have distinct names; `max_length` is for text fields. */
function checkListFields(slot: ListSlotT, slotPath: string, errors: ValidationError[]): void {
  const seen = new Map<string, string>();
  slot.fields.forEach((field, i) => {
    const path = joinPath(`${slotPath}.fields`, i);
    const first = seen.get(field.name);
    if (first !== undefined) {
      errors.push({
        path: `${path}.name`,
        message: `duplicate field name ${JSON.stringify(field.name)} (first at ${first})`,
      });
    } else seen.set(field.name, path);
    if (field.max_length !== undefined && field.type !== "text") {
      errors.push({
        path: `${path}.max_length`,
        message: `applies to text fields only (this is a ${field.type} field)`,
      });
    }
  });
}

/**
 * Whether a slot of type `actual` can feed a property that takes `expected`: a number or date slot
 * also feeds text properties (shown as text, or through the text layer's `format`).
 */
export function slotFits(expected: SlotType, actual: SlotType): boolean {
  return actual === expected || (expected === "text" && (actual === "number" || actual === "date"));
}

/** The brand palette lists each colour once (case does not make two colours). */
function checkPalette(palette: readonly string[], errors: ValidationError[]): void {
  const seen = new Map<string, string>();
  palette.forEach((color, i) => {
    const path = joinPath("palette", i);
    const first = seen.get(color.toUpperCase());
    if (first !== undefined) {
      errors.push({ path, message: `duplicate palette colour ${JSON.stringify(color)} (first at ${first})` });
    } else seen.set(color.toUpperCase(), path);
  });
}

function checkFrame(
  frame: FrameT,
  path: string,
  slots: Map<string, SlotT>,
  inlineStyles: ReadonlySet<string>,
  errors: ValidationError[],
): void {
  checkPaints(frame, FRAME.paints, path, errors);
  checkBindings(frame, "a frame", FRAME, path, slots, errors);
  checkColorBindings(frame, path, slots, errors);
  errors.push(...printSizeErrors(frame, path));
  const ids = new Map<string, string>();
  const layersById = new Map<string, LayerBase>();
  const placed: { layer: Layer; path: string; items: ListSlotT | null }[] = [];
  // `nesting`: how many containers of each kind enclose these layers (a kind may cap it: maxNesting).
  // `items`: the list slot of the nearest repeating stack around them (what `item.<field>` reads).
  const visit = (
    layers: readonly Layer[],
    parentPath: string,
    depth: number,
    nesting: ReadonlyMap<string, number>,
    items: ListSlotT | null,
  ): void => {
    layers.forEach((layer, i) => {
      const layerPath = joinPath(joinPath(parentPath, "layers"), i);
      const first = ids.get(layer.id);
      if (first !== undefined) {
        errors.push({
          path: `${layerPath}.id`,
          message: `duplicate layer id ${JSON.stringify(layer.id)} in frame ${JSON.stringify(frame.name)} (first at ${first})`,
        });
      } else {
        ids.set(layer.id, layerPath);
        layersById.set(layer.id, layer);
      }
      placed.push({ layer, path: layerPath, items });
      const definition = definitionOf(layer);
      const children = definition.children?.(layer);
      const repeat = (layer as { repeat?: RepeatT }).repeat;
      const repeated = repeat === undefined ? undefined : slots.get(repeat.slot);
      const inner = repeated?.type === "list" ? repeated : items;
      if (children) {
        const nested = (nesting.get(layer.type) ?? 0) + 1;
        if (depth >= MAX_GROUP_DEPTH) {
          errors.push({
            path: layerPath,
            message: `groups are nested too deeply (at most ${MAX_GROUP_DEPTH} levels)`,
          });
        } else if (definition.maxNesting !== undefined && nested > definition.maxNesting) {
          errors.push({
            path: layerPath,
            message: `${layer.type} layers are nested too deeply (at most ${definition.maxNesting} inside each other)`,
          });
        } else
          visit(children as Layer[], layerPath, depth + 1, new Map(nesting).set(layer.type, nested), inner);
      }
    });
  };
  visit(frame.layers, path, 0, new Map(), null);
  const context = { slots, layersById, inlineStyles };
  for (const { layer, path: layerPath, items } of placed) {
    const kind = definitionOf(layer);
    checkPaints(layer, kind.paints ?? [], layerPath, errors);
    checkBindings(layer, `a ${kind.type} layer`, kind, layerPath, slots, errors, items);
    checkColorBindings(layer, layerPath, slots, errors);
    checkCondition(layer, layerPath, slots, errors, items);
    checkLayout(layer, kind, layerPath, errors);
    for (const error of maskErrors(layer, layerPath, ids, layersById)) errors.push(error);
    for (const error of kind.validate?.(layer, layerPath, context) ?? []) errors.push(error);
  }
}

/** The value at a dotted property path of a layer (`stroke.color`). */
function valueAt(owner: object, property: string): unknown {
  let node: unknown = owner;
  for (const step of property.split(".")) node = isRecord(node) ? node[step] : undefined;
  return node;
}

/** Gradient stops must be in ascending order of offset. */
function checkPaints(owner: object, paints: readonly string[], ownerPath: string, errors: ValidationError[]) {
  for (const property of paints) {
    const paint = valueAt(owner, property);
    if (!isRecord(paint) || !Array.isArray(paint.stops)) continue;
    const stops = paint.stops as { offset: number }[];
    stops.forEach((stop, i) => {
      const previous = stops[i - 1];
      if (previous !== undefined && stop.offset < previous.offset) {
        errors.push({
          path: `${joinPath(`${ownerPath}.${property}.stops`, i)}.offset`,
          message: `must be >= the previous stop's offset (${previous.offset}); stops go in ascending order`,
        });
      }
    });
  }
}

function checkBindings(
  owner: { bind?: Readonly<Record<string, string>> },
  what: string,
  kind: { bindable: Readonly<Record<string, SlotType>>; paints?: readonly string[] },
  ownerPath: string,
  slots: Map<string, SlotT>,
  errors: ValidationError[],
  items: ListSlotT | null = null,
): void {
  const bind = owner.bind;
  if (bind === undefined) return;
  const properties = Object.keys(kind.bindable);
  for (const property of Object.keys(bind)) {
    const path = joinPath(joinPath(ownerPath, "bind"), property);
    const slotName = bind[property] ?? "";
    const stop = STOP_BINDING.exec(property);
    let expected = Object.hasOwn(kind.bindable, property) ? kind.bindable[property] : undefined;
    if (expected === undefined && stop?.[1] !== undefined && (kind.paints ?? []).includes(stop[1])) {
      const stops = valueAt(owner, `${stop[1]}.stops`);
      if (!Array.isArray(stops)) {
        errors.push({ path, message: `is bound, but ${stop[1]} is not a gradient (it has no stops)` });
        continue;
      }
      if (Number(stop[2]) >= stops.length) {
        errors.push({ path, message: `is bound, but ${stop[1]} has only ${stops.length} stops` });
        continue;
      }
      expected = "color";
    }
    if (expected === undefined) {
      const message =
        properties.length === 0
          ? `${what} has no bindable properties (bind its children instead)`
          : `${JSON.stringify(property)} cannot be bound on ${what}; bindable: ${quoteList(properties)}${didYouMean(property, properties)}`;
      errors.push({ path, message });
      continue;
    }
    if (slotName.startsWith(ITEM_PREFIX)) {
      const problem = itemFieldProblem(slotName, items, expected);
      if (problem !== null) errors.push({ path, message: problem });
      continue;
    }
    const slot = slots.get(slotName);
    if (slot === undefined) {
      errors.push({
        path,
        message: `slot ${JSON.stringify(slotName)} does not exist${didYouMean(slotName, slots.keys())}`,
      });
    } else if (!slotFits(expected, slot.type)) {
      errors.push({
        path,
        message: `slot ${JSON.stringify(slotName)} is a ${slot.type} slot, but ${JSON.stringify(property)} needs ${expected === "image" ? "an" : "a"} ${expected} slot`,
      });
    }
  }
}

/**
 * What is wrong with an `item.<field>` binding: outside a repeating stack there is no item; inside, the
 * field must be one of the list's, of a type the property takes. Null when it is right.
 */
function itemFieldProblem(
  reference: string,
  items: ListSlotT | null,
  expected: SlotType | null,
): string | null {
  const name = reference.slice(ITEM_PREFIX.length);
  if (items === null) {
    return `${JSON.stringify(reference)} reads a repeated item's field, but the layer is not inside a repeating stack`;
  }
  const field = items.fields.find((f) => f.name === name);
  if (field === undefined) {
    const names = items.fields.map((f) => f.name);
    return `list slot ${JSON.stringify(items.name)} has no field ${JSON.stringify(name)}${didYouMean(name, names)}; fields: ${quoteList(names)}`;
  }
  if (expected !== null && !slotFits(expected, field.type)) {
    return `field ${JSON.stringify(name)} is a ${field.type} field, but the property needs ${expected === "image" ? "an" : "a"} ${expected}`;
  }
  return null;
}

function checkCondition(
  layer: Layer,
  layerPath: string,
  slots: Map<string, SlotT>,
  errors: ValidationError[],
  items: ListSlotT | null,
) {
  const condition = layer.visible_when;
  if (condition?.slot.startsWith(ITEM_PREFIX)) {
    const problem = itemFieldProblem(condition.slot, items, null);
    if (problem !== null) errors.push({ path: `${layerPath}.visible_when.slot`, message: problem });
    return;
  }
  if (condition === undefined || slots.has(condition.slot)) return;
  errors.push({
    path: `${layerPath}.visible_when.slot`,
    message: `slot ${JSON.stringify(condition.slot)} does not exist${didYouMean(condition.slot, slots.keys())}`,
  });
}

/** `hug` only where the kind can measure its content; no resizing of kinds that keep their size. */
function checkLayout(
  layer: Layer,
  kind: { type: string; hugs?: boolean; keepsSize?: boolean },
  path: string,
  errors: ValidationError[],
): void {
  const layout = layer.layout;
  if (layout === undefined) return;
  for (const axis of ["width", "height"] as const) {
    const sizing = layout[axis] ?? "fixed";
    if (sizing === "fixed") continue;
    if (kind.keepsSize === true) {
      errors.push({
        path: `${path}.layout.${axis}`,
        message: `must be "fixed": a ${kind.type} layer keeps its size (its pixels are prepared at that size)`,
      });
    } else if (sizing === "hug" && kind.hugs !== true) {
      errors.push({
        path: `${path}.layout.${axis}`,
        message: `cannot be "hug": a ${kind.type} layer has no content size to hug (text and stack layers do)`,
      });
    }
  }
}

/** `bind_colors` names bound properties only, each bound to a colour slot (or a list item's field). */
function checkColorBindings(
  owner: {
    bind?: Readonly<Record<string, string>> | undefined;
    bind_colors?: Readonly<Record<string, unknown>> | undefined;
  },
  path: string,
  slots: Map<string, SlotT>,
  errors: ValidationError[],
): void {
  for (const property of Object.keys(owner.bind_colors ?? {})) {
    const slot = owner.bind?.[property];
    const at = `${path}.bind_colors${/^[a-z_]+$/.test(property) ? `.${property}` : `[${JSON.stringify(property)}]`}`;
    if (slot === undefined) {
      errors.push({ path: at, message: `"${property}" is not bound: bind it to a colour slot first` });
    } else if (
      !slot.startsWith(ITEM_PREFIX) &&
      slots.get(slot)?.type !== undefined &&
      slots.get(slot)?.type !== "color"
    ) {
      errors.push({ path: at, message: `"${property}" is bound to "${slot}", which is not a colour slot` });
    }
  }
}
