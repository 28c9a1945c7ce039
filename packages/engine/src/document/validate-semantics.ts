import type { FrameT, Layer, SlotT, SlotType, TemplateDocumentT } from "./schema.ts";
import { didYouMean, joinPath, quoteList, type ValidationError } from "./validate-paths.ts";
import { validateSlotValues } from "./values.ts";

/** Groups inside groups, at most. The renderer recurses per level; real designs use 2 or 3. */
export const MAX_GROUP_DEPTH = 32;

/** Which slot type each bindable property takes, per layer kind (schema.ts documents the same list). */
export const BINDABLE_PROPERTIES: Readonly<
  Record<Layer["type"] | "frame", Readonly<Record<string, SlotType>>>
> = {
  text: { text: "text", color: "color" },
  image: { src: "image" },
  shape: { fill: "color", "stroke.color": "color" },
  group: {},
  frame: { background: "color" },
};

/**
 * Rules JSON Schema cannot express, run on a document that already matches the v1 schema: names that
 * must be unique, bindings that must point at an existing slot of the right type, defaults and samples
 * that must be valid values, and a text layer's `min_size` that must not exceed its size.
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
    checkFrame(frame, path, slots, errors);
  });

  if (doc.sample !== undefined) {
    const sample = validateSlotValues(doc, doc.sample, "sample");
    if (!sample.ok) for (const { path, message } of sample.errors) errors.push({ path, message });
  }
  return errors;
}

function checkFrame(frame: FrameT, path: string, slots: Map<string, SlotT>, errors: ValidationError[]): void {
  checkBindings(frame.bind, "frame", path, slots, errors, { hasStroke: false });
  const ids = new Map<string, string>();
  const visit = (layers: readonly Layer[], parentPath: string, depth: number): void => {
    layers.forEach((layer, i) => {
      const layerPath = joinPath(joinPath(parentPath, "layers"), i);
      const first = ids.get(layer.id);
      if (first !== undefined) {
        errors.push({
          path: `${layerPath}.id`,
          message: `duplicate layer id ${JSON.stringify(layer.id)} in frame ${JSON.stringify(frame.name)} (first at ${first})`,
        });
      } else ids.set(layer.id, layerPath);
      const hasStroke = layer.type === "shape" && layer.stroke !== undefined && layer.stroke !== null;
      checkBindings(layer.bind, layer.type, layerPath, slots, errors, { hasStroke });
      if (layer.type === "text" && layer.min_size !== undefined && layer.min_size > layer.font.size) {
        errors.push({ path: `${layerPath}.min_size`, message: `must be <= font.size (${layer.font.size})` });
      }
      if (layer.type === "group") {
        if (depth >= MAX_GROUP_DEPTH) {
          errors.push({
            path: layerPath,
            message: `groups are nested too deeply (at most ${MAX_GROUP_DEPTH} levels)`,
          });
        } else visit(layer.layers, layerPath, depth + 1);
      }
    });
  };
  visit(frame.layers, path, 0);
}

function checkBindings(
  bind: Readonly<Record<string, string>> | undefined,
  owner: Layer["type"] | "frame",
  ownerPath: string,
  slots: Map<string, SlotT>,
  errors: ValidationError[],
  layer: { hasStroke: boolean },
): void {
  if (bind === undefined) return;
  const bindable = BINDABLE_PROPERTIES[owner];
  const properties = Object.keys(bindable);
  const what = owner === "frame" ? "a frame" : `a ${owner} layer`;
  for (const property of Object.keys(bind)) {
    const path = joinPath(joinPath(ownerPath, "bind"), property);
    const slotName = bind[property] ?? "";
    const expected = Object.hasOwn(bindable, property) ? bindable[property] : undefined;
    if (expected === undefined) {
      const message =
        properties.length === 0
          ? `${what} has no bindable properties (bind its children instead)`
          : `${JSON.stringify(property)} cannot be bound on ${what}; bindable: ${quoteList(properties)}${didYouMean(property, properties)}`;
      errors.push({ path, message });
      continue;
    }
    const slot = slots.get(slotName);
    if (slot === undefined) {
      errors.push({
        path,
        message: `slot ${JSON.stringify(slotName)} does not exist${didYouMean(slotName, slots.keys())}`,
      });
    } else if (slot.type !== expected) {
      errors.push({
        path,
        message: `slot ${JSON.stringify(slotName)} is a ${slot.type} slot, but ${JSON.stringify(property)} needs ${expected === "image" ? "an" : "a"} ${expected} slot`,
      });
    } else if (property === "stroke.color" && !layer.hasStroke) {
      errors.push({ path, message: 'is bound, but the layer has no stroke to colour (add "stroke")' });
    }
  }
}
