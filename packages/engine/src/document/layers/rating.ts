import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon, Paint } from "../common.ts";
import type { SlotValueError } from "../values.ts";
import { fillStrokeErrors } from "./fill-stroke.ts";
import { defineLayer, type PropertyValues } from "./kind.ts";
import { Stroke } from "./shape.ts";

/** Gap between two symbols when `spacing` is absent, as a fraction of the symbol's side. */
const DEFAULT_RATING_SPACING = 0.2;

/**
 * A rating: `max` (1..20, default 5) symbols (`shape`: star, circle or heart) in a row, of which
 * `value` (a decimal number 0..max as text, bindable to a text slot: "4.5") are filled with `color`
 * and the rest with `empty_color` (null: not drawn). The symbols are squares of the box's height,
 * smaller when `max` of them and their `spacing` are wider than the box; the row starts at the box's
 * left edge and is centred vertically. The fractional part fills the next symbol from its left: 4.5 of
 * 5 is four full symbols, one half and none empty. An empty value draws every symbol empty (no rating
 * yet). Gradients run across the row of symbols. The optional `stroke` outlines every symbol inside
 * its edge. Bindable: `value`, `color`, `empty_color`, `stroke.color` (and gradient stop colours).
 */
export const RatingLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("rating"),
    /** "4.5", "4,5", "" (no rating yet). */
    value: T.String({ maxLength: 32 }),
    max: T.Optional(T.Integer({ minimum: 1, maximum: 20, default: 5 })),
    shape: T.Optional(
      T.Union([T.Literal("star"), T.Literal("circle"), T.Literal("heart")], { default: "star" }),
    ),
    /** The filled part. */
    color: T.Optional(Paint),
    /** The unfilled part; null leaves it transparent. */
    empty_color: T.Optional(T.Union([Paint, T.Null()])),
    stroke: T.Optional(T.Union([Stroke, T.Null()])),
    /** Template px between two symbols; default a fifth of the symbol's side. */
    spacing: T.Optional(T.Number({ minimum: 0, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
export type RatingLayerT = Static<typeof RatingLayer>;

export type RatingShape = NonNullable<RatingLayerT["shape"]>;

/** Plain decimal notation, with a point or a comma: "4", "4.5", "3.25", "4,5". */
const RATING_NUMBER = /^\d+(?:[.,]\d+)?$/;

/**
 * The number a rating value stands for: null for an empty value (nothing filled), or the reason it is
 * not a rating of at most `max`.
 */
export function parseRating(value: string, max: number): number | null | string {
  const text = value.trim();
  if (text === "") return null;
  const number = RATING_NUMBER.test(text) ? Number(text.replace(",", ".")) : Number.NaN;
  if (number >= 0 && number <= max) return number;
  const got = value.length <= 32 ? ` (got ${JSON.stringify(value)})` : "";
  return `must be a number from 0 to ${max} for the rating layer, such as "4.5", or empty for no rating${got}`;
}

/** Where the symbols go: `count` squares of side `size`, `spacing` apart, from (`left`, `top`). */
export interface RatingRow {
  count: number;
  size: number;
  spacing: number;
  left: number;
  top: number;
}

/** The row's layout; here, not in the painter, because validation refuses a `spacing` that leaves no room. */
export function ratingRow(layer: RatingLayerT): RatingRow {
  const count = layer.max ?? 5;
  const gaps = count - 1;
  let size: number;
  let spacing: number;
  if (layer.spacing === undefined) {
    size = Math.min(layer.height, layer.width / (count + gaps * DEFAULT_RATING_SPACING));
    spacing = size * DEFAULT_RATING_SPACING;
  } else {
    spacing = layer.spacing;
    size = Math.min(layer.height, (layer.width - gaps * spacing) / count);
  }
  size = Math.max(0, size);
  return { count, size, spacing, left: layer.x, top: layer.y + (layer.height - size) / 2 };
}

/** The layer's value after binding (the request's, the slot's default, or the design value). */
export const boundValue = (layer: RatingLayerT, path: string, values: PropertyValues) =>
  values.resolve(layer.bind, "value", layer.value, `${path}.value`, layer.id);

export const ratingDefinition = defineLayer<RatingLayerT>({
  type: "rating",
  schema: RatingLayer,
  bindable: { value: "text", color: "color", empty_color: "color", "stroke.color": "color" },
  paints: ["color", "empty_color", "stroke.color"],
  validate(layer, path, doc) {
    const errors = fillStrokeErrors(layer, path);
    const max = layer.max ?? 5;
    // The design's value is drawn whenever the slot gives none, so it must be a rating even when bound.
    const design = parseRating(layer.value, max);
    if (typeof design === "string") errors.push({ path: `${path}.value`, message: design });
    const slot = layer.bind?.value;
    const fallback = slot === undefined ? undefined : doc.slots.get(slot)?.default;
    if (slot !== undefined && typeof fallback === "string") {
      const checked = parseRating(fallback, max);
      if (typeof checked === "string") {
        errors.push({
          path: `${path}.bind.value`,
          message: `the default of slot ${JSON.stringify(slot)} ${checked}`,
        });
      }
    }
    if (layer.width > 0 && layer.height > 0 && ratingRow(layer).size <= 0) {
      errors.push({ path: `${path}.spacing`, message: "leaves no room for the symbols in the box's width" });
    }
    return errors;
  },
  checkValues(layer, path, values): SlotValueError[] {
    const value = boundValue(layer, path, values);
    if (value.slot === null) return [];
    const rating = parseRating(value.value, layer.max ?? 5);
    if (typeof rating !== "string") return [];
    return [{ path: value.path, slot: value.slot, kind: "unencodable", message: rating }];
  },
});
