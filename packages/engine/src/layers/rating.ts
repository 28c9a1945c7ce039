import { type Static, Type as T } from "@sinclair/typebox";
import type { CanvasKit, Path, PathBuilder, Rect } from "canvaskit-wasm";
import { layerCommon, Paint, type PaintT } from "../document/common.ts";
import type { SlotValueError } from "../document/values.ts";
import type { Bindings } from "../render/bindings.ts";
import type { PaintContext } from "../render/context.ts";
import { EngineError } from "../render/errors.ts";
import { fillStrokeErrors, strokeOutline } from "../render/fill-stroke.ts";
import {
  applyPaint,
  type PaintBox,
  resolveLayerPaint,
  resolvePaint,
  resolvePaintOrNone,
} from "../render/paint.ts";
import { regularVertices } from "../render/polygon-path.ts";
import { defineLayerKind } from "./kind.ts";
import { Stroke } from "./shape.ts";
import { STAR_INNER_RADIUS } from "./star.ts";

/** Gap between two symbols when `spacing` is absent, as a fraction of the symbol's side. */
const DEFAULT_RATING_SPACING = 0.2;
const DEFAULT_RATING_COLOR = "#F59E0B";
const DEFAULT_RATING_EMPTY_COLOR = "#E5E7EB";

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

type RatingShape = NonNullable<RatingLayerT["shape"]>;

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
interface RatingRow {
  count: number;
  size: number;
  spacing: number;
  left: number;
  top: number;
}

function ratingRow(layer: RatingLayerT): RatingRow {
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

/** The box the row of symbols covers (where gradients run). */
function rowBox(row: RatingRow): PaintBox {
  const width = row.count * row.size + (row.count - 1) * row.spacing;
  return { x: row.left, y: row.top, width, height: row.size };
}

/**
 * A heart filling the square at (x, y) of side `s`: two lobes touching the top and the sides, the tip
 * at the bottom centre.
 */
function addHeart(builder: PathBuilder, x: number, y: number, s: number): void {
  const at = (u: number, v: number): [number, number] => [x + u * s, y + v * s];
  builder.moveTo(...at(0.5, 1));
  builder.cubicTo(...at(0.2, 0.78), ...at(0, 0.56), ...at(0, 0.3));
  builder.cubicTo(...at(0, 0.12), ...at(0.13, 0), ...at(0.27, 0));
  builder.cubicTo(...at(0.38, 0), ...at(0.46, 0.06), ...at(0.5, 0.16));
  builder.cubicTo(...at(0.54, 0.06), ...at(0.62, 0), ...at(0.73, 0));
  builder.cubicTo(...at(0.87, 0), ...at(1, 0.12), ...at(1, 0.3));
  builder.cubicTo(...at(1, 0.56), ...at(0.8, 0.78), ...at(0.5, 1));
  builder.close();
}

/** Every symbol's outline, one contour each, left to right. */
function ratingSymbols(ck: CanvasKit, shape: RatingShape, row: RatingRow): Path {
  const builder = new ck.PathBuilder();
  for (let i = 0; i < row.count; i++) {
    const x = row.left + i * (row.size + row.spacing);
    const cell = { x, y: row.top, width: row.size, height: row.size };
    if (shape === "circle") builder.addOval(ck.XYWHRect(x, row.top, row.size, row.size));
    else if (shape === "heart") addHeart(builder, x, row.top, row.size);
    else builder.addPolygon(regularVertices(5, STAR_INNER_RADIUS, cell).flat(), true);
  }
  return builder.detachAndDelete();
}

const boundValue = (layer: RatingLayerT, path: string, bindings: Bindings) =>
  bindings.resolve(layer.bind, "value", layer.value, `${path}.value`, layer.id);

export const ratingKind = defineLayerKind<RatingLayerT>({
  type: "rating",
  schema: RatingLayer,
  bindable: { value: "text", color: "color", empty_color: "color", "stroke.color": "color" },
  paints: ["color", "empty_color", "stroke.color"],
  paint: paintRating,
  validate(layer, path, doc) {
    const errors = fillStrokeErrors(layer, path);
    const max = layer.max ?? 5;
    // The design's value is drawn whenever the slot gives none, so it must be a rating even when bound.
    const design = parseRating(layer.value, max);
    if (typeof design === "string") errors.push({ path: `${path}.value`, message: design });
    const slot = layer.bind?.value;
    const fallback = slot === undefined ? undefined : doc.slots.get(slot)?.default;
    if (slot !== undefined && fallback !== undefined) {
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
  checkValues(layer, path, bindings): SlotValueError[] {
    const value = boundValue(layer, path, bindings);
    if (value.slot === null) return [];
    const rating = parseRating(value.value, layer.max ?? 5);
    if (typeof rating !== "string") return [];
    return [{ path: value.path, slot: value.slot, kind: "unencodable", message: rating }];
  },
});

function paintRating(ctx: PaintContext, layer: RatingLayerT, path: string): void {
  const value = boundValue(layer, path, ctx.bindings);
  const rating = parseRating(value.value, layer.max ?? 5);
  if (typeof rating === "string") throw new EngineError("value_not_encodable", value.path, rating);
  const row = ratingRow(layer);
  if (row.size <= 0) return;
  const { ck, bindings, paint } = ctx;
  const box = rowBox(row);
  const symbols = ratingSymbols(ck, layer.shape ?? "star", row);
  // The filled part ends `rating` symbols in: whole ones, then the fraction of the next one's width.
  const whole = Math.floor(rating ?? 0);
  const edge = row.left + whole * (row.size + row.spacing) + ((rating ?? 0) - whole) * row.size;
  const filled = ck.LTRBRect(box.x - 1, box.y - 1, edge, box.y + box.height + 1);
  paint.setAntiAlias(true);
  paint.setAlphaf(1);
  paint.setStyle(ck.PaintStyle.Fill);
  const design = layer.empty_color === undefined ? DEFAULT_RATING_EMPTY_COLOR : layer.empty_color;
  const empty = resolvePaintOrNone(
    bindings,
    layer.bind,
    "empty_color",
    design,
    `${path}.empty_color`,
    layer.id,
  );
  if (empty.value !== null) fillClipped(ctx, symbols, empty.value, empty.path, box, filled, false);
  if (edge > box.x) {
    const color = layer.color ?? DEFAULT_RATING_COLOR;
    const full = resolvePaint(bindings, layer.bind, "color", color, `${path}.color`, layer.id);
    fillClipped(ctx, symbols, full.value, full.path, box, filled, true);
  }
  if (layer.stroke) {
    const stroke = layer.stroke;
    const color = resolveLayerPaint(bindings, layer, "stroke.color", stroke.color, path);
    strokeOutline(ctx, symbols, stroke, color, "inside", box);
  }
  symbols.delete();
}

/** Fills `symbols` inside (`inside`) or outside the rectangle `clip`. */
function fillClipped(
  ctx: PaintContext,
  symbols: Path,
  value: PaintT,
  valuePath: string,
  box: PaintBox,
  clip: Rect,
  inside: boolean,
): void {
  const { ck, canvas, paint } = ctx;
  const saved = canvas.save();
  canvas.clipRect(clip, inside ? ck.ClipOp.Intersect : ck.ClipOp.Difference, true);
  const release = applyPaint(ck, paint, value, valuePath, box);
  canvas.drawPath(symbols, paint);
  release();
  canvas.restoreToCount(saved);
}
