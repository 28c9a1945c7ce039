import { Type as T, type TSchema } from "@sinclair/typebox";
import {
  type LayerCommonT,
  layerCommon,
  MAX_LIST_ITEMS,
  Padding,
  type PaddingT,
  Paint,
  type PaintT,
} from "../common.ts";
import { Repeat, type RepeatT } from "../repeat.ts";
import type { ValidationError } from "../validate-paths.ts";
import { type DocumentContext, defineLayer } from "./kind.ts";
import type { Layer } from "./registry.ts";
import { CornerRadius, Stroke } from "./shape.ts";

/** Children a stack holds at most (a documented limit, checked at save and again when drawing). */
export const MAX_STACK_CHILDREN = 200;
/** Stacks inside stacks, at most (a row of cards of rows is 3). */
export const MAX_STACK_DEPTH = 8;

const Spacing = T.Number({ minimum: 0, maximum: 10_000 });

/**
 * A container that places its children itself, one after another in a row or a column, like auto
 * layout in design tools. The children's own `x`/`y` are ignored; their size follows their `layout`
 * (fixed, hug, fill) and the stack's `align`. A child that is not drawn (`visible: false`, a
 * `visible_when` that fails, a text or image whose bound slot is empty) takes no space: the rest close
 * up. The stack's own box can hug its children (`layout: { width: "hug" }`), and it can paint a
 * background behind them (`fill`, `stroke`, `corner_radius`: pills, buttons, cards).
 */
export interface StackLayerT extends LayerCommonT {
  type: "stack";
  /** `column` (the default): top to bottom; `row`: left to right. */
  direction?: "row" | "column";
  /** Template px between children (and between the lines of a wrapping row, unless `line_gap`). */
  gap?: number;
  line_gap?: number;
  padding?: PaddingT;
  /** Across the direction: `start` (default), `center`, `end`, or `stretch` to the inside. */
  align?: "start" | "center" | "end" | "stretch";
  /** Along the direction, the free space: `start` (default), `center`, `end`, `space-between`. */
  distribute?: "start" | "center" | "end" | "space-between";
  /** Rows only: children that do not fit go on to a new line. */
  wrap?: boolean;
  fill?: PaintT | null;
  stroke?: { color: PaintT; width: number } | null;
  corner_radius?: number | [number, number, number, number];
  /** Draw the children once per item of a list slot (document/repeat.ts). */
  repeat?: RepeatT;
  layers: Layer[];
}

/** The stack schema, given the schema of one child (any leaf kind, or a container by `$ref`). */
export function stackSchema(child: TSchema): TSchema {
  return T.Object(
    {
      ...layerCommon,
      type: T.Literal("stack"),
      direction: T.Optional(T.Union([T.Literal("row"), T.Literal("column")], { default: "column" })),
      gap: T.Optional(Spacing),
      line_gap: T.Optional(Spacing),
      padding: T.Optional(Padding),
      align: T.Optional(
        T.Union([T.Literal("start"), T.Literal("center"), T.Literal("end"), T.Literal("stretch")], {
          default: "start",
        }),
      ),
      distribute: T.Optional(
        T.Union([T.Literal("start"), T.Literal("center"), T.Literal("end"), T.Literal("space-between")], {
          default: "start",
        }),
      ),
      wrap: T.Optional(T.Boolean({ default: false })),
      /** A paint behind the children, over the whole box; none when absent or null. */
      fill: T.Optional(T.Union([Paint, T.Null()])),
      stroke: T.Optional(T.Union([Stroke, T.Null()])),
      corner_radius: T.Optional(CornerRadius),
      repeat: T.Optional(Repeat),
      layers: T.Array(child, { maxItems: MAX_STACK_CHILDREN }),
    },
    { additionalProperties: false, $id: "StackLayer" },
  );
}

/** The stack's document half, given its schema (built from the leaf kinds by the registry). */
export function stackDefinition(schema: TSchema) {
  return defineLayer<StackLayerT>({
    type: "stack",
    schema,
    bindable: { fill: "color", "stroke.color": "color" },
    paints: ["fill", "stroke.color"],
    hugs: true,
    maxNesting: MAX_STACK_DEPTH,
    children: (layer) => layer.layers,
    validate(layer, path, doc) {
      const errors = [];
      if (layer.repeat !== undefined)
        for (const error of repeatErrors(layer, layer.repeat, path, doc)) errors.push(error);
      if (layer.wrap === true && (layer.direction ?? "column") !== "row") {
        errors.push({ path: `${path}.wrap`, message: 'only a row wraps (set direction to "row")' });
      }
      if (layer.bind?.fill !== undefined && (layer.fill === undefined || layer.fill === null)) {
        errors.push({
          path: `${path}.bind.fill`,
          message: 'is bound, but the stack has no fill to colour (add "fill")',
        });
      }
      if (
        layer.bind?.["stroke.color"] !== undefined &&
        (layer.stroke === undefined || layer.stroke === null)
      ) {
        errors.push({
          path: `${path}.bind["stroke.color"]`,
          message: 'is bound, but the stack has no stroke to colour (add "stroke")',
        });
      }
      return errors;
    },
  });
}

/**
 * A repeat names a list slot, and its copies stay within the stack's limit: children x items (the
 * repeat's max, else the list's max_items, else 100), plus the "more" line, at most MAX_STACK_CHILDREN.
 */
function repeatErrors(
  layer: StackLayerT,
  repeat: RepeatT,
  path: string,
  doc: DocumentContext,
): ValidationError[] {
  const slot = doc.slots.get(repeat.slot);
  if (slot === undefined) {
    return [{ path: `${path}.repeat.slot`, message: `slot ${JSON.stringify(repeat.slot)} does not exist` }];
  }
  if (slot.type !== "list") {
    return [
      {
        path: `${path}.repeat.slot`,
        message: `slot ${JSON.stringify(repeat.slot)} is a ${slot.type} slot; a repeat needs a list slot`,
      },
    ];
  }
  const items = Math.min(repeat.max ?? slot.max_items ?? MAX_LIST_ITEMS, slot.max_items ?? MAX_LIST_ITEMS);
  const copies = layer.layers.length * items + (repeat.more === undefined ? 0 : 1);
  if (copies > MAX_STACK_CHILDREN) {
    return [
      {
        path: `${path}.repeat.max`,
        message: `${layer.layers.length} children x ${items} items${repeat.more === undefined ? "" : " + the more line"} = ${copies} layers; a stack holds at most ${MAX_STACK_CHILDREN} (lower max, or repeat one row stack)`,
      },
    ];
  }
  return [];
}
