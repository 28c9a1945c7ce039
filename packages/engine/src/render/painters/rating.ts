import type { CanvasKit, Path, PathBuilder, Rect } from "canvaskit-wasm";
import type { PaintT } from "../../document/common.ts";
import {
  boundValue,
  parseRating,
  type RatingLayerT,
  type RatingRow,
  type RatingShape,
  ratingRow,
} from "../../document/layers/rating.ts";
import { STAR_INNER_RADIUS } from "../../document/layers/star.ts";
import type { PaintContext } from "../context.ts";
import { EngineError } from "../errors.ts";
import { strokeOutline } from "../fill-stroke.ts";
import { applyPaint, type PaintBox, resolveLayerPaint, resolvePaint, resolvePaintOrNone } from "../paint.ts";
import { regularVertices } from "../polygon-path.ts";
import { definePainter } from "./painter.ts";

const DEFAULT_RATING_COLOR = "#F59E0B";
const DEFAULT_RATING_EMPTY_COLOR = "#E5E7EB";

export const ratingPainter = definePainter<RatingLayerT>({ paint: paintRating });

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
  const release = applyPaint(ctx, paint, value, valuePath, box);
  canvas.drawPath(symbols, paint);
  release();
  canvas.restoreToCount(saved);
}
