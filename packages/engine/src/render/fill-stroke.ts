import type { Path } from "canvaskit-wasm";
import type { PaintT } from "../document/common.ts";
import type { FillStrokeLayer, OutlineStrokeT, StrokeAlignT } from "../document/layers/fill-stroke.ts";
import type { Bindings, Resolved } from "./bindings.ts";
import type { PaintContext } from "./context.ts";
import { fillArea } from "./gradient-bands.ts";
import { applyPaint, type PaintBox, resolveLayerPaint, resolvePaintOrNone } from "./paint.ts";
import { paintAlpha, type Silhouette } from "./shadows.ts";

/**
 * The one drawing routine of the outline kinds (polygon, star, path; their schema properties are in
 * document/layers/fill-stroke.ts), so the three draw strokes, gradients and bindings alike.
 */

/** Template px the stroke may reach past the box: miter corners reach up to 2x (centre) or 4x (outside) the width. */
export function fillStrokeOverhang(layer: FillStrokeLayer, defaultAlign: StrokeAlignT): number {
  const stroke = layer.stroke;
  if (!stroke) return 1;
  const align = stroke.align ?? defaultAlign;
  if (align === "inside") return 1;
  return Math.ceil(stroke.width * (align === "center" ? 2 : 4)) + 1;
}

/**
 * Fills `outline` (template px, the layer's parent's coordinates) with the layer's fill, then strokes
 * it. Inside and outside strokes are a centred stroke of twice the width clipped to the outline's
 * inside or outside, so they follow any outline (curves, self-intersections, even-odd holes).
 * Gradients run across the layer's box.
 */
export function paintFillStroke(
  ctx: PaintContext,
  layer: FillStrokeLayer,
  outline: Path,
  path: string,
  defaultAlign: StrokeAlignT,
): void {
  const { ck, canvas, paint, bindings } = ctx;
  paint.setAntiAlias(true);
  paint.setAlphaf(1);
  const fill = resolvePaintOrNone(bindings, layer.bind, "fill", layer.fill, `${path}.fill`, layer.id);
  if (fill.value !== null) {
    fillArea(ctx, fill.value, fill.path, layer, {
      clip: () => canvas.clipPath(outline, ck.ClipOp.Intersect, true),
      drawSolid: () => canvas.drawPath(outline, paint),
    });
  }
  const stroke = layer.stroke;
  if (!stroke) return;
  const color = resolveLayerPaint(bindings, layer, "stroke.color", stroke.color, path);
  strokeOutline(ctx, outline, stroke, color, stroke.align ?? defaultAlign, layer);
}

/**
 * Strokes `outline` with `color` over `box` (where a gradient runs). Inside and outside strokes are a
 * centred stroke of twice the width clipped to the outline's inside or outside.
 */
export function strokeOutline(
  ctx: PaintContext,
  outline: Path,
  stroke: { width: number; join?: OutlineStrokeT["join"] },
  color: Resolved<PaintT>,
  align: StrokeAlignT,
  box: PaintBox,
): void {
  const { ck, canvas, paint } = ctx;
  const saved = canvas.save();
  if (align !== "center") {
    canvas.clipPath(outline, align === "inside" ? ck.ClipOp.Intersect : ck.ClipOp.Difference, true);
  }
  paint.setStyle(ck.PaintStyle.Stroke);
  paint.setStrokeWidth(align === "center" ? stroke.width : stroke.width * 2);
  paint.setStrokeJoin(strokeJoinOf(ck, stroke.join));
  const release = applyPaint(ctx, paint, color.value, color.path, box);
  canvas.drawPath(outline, paint);
  release();
  // The paint is shared by every layer: leave the join as the other painters expect it.
  paint.setStrokeJoin(ck.StrokeJoin.Miter);
  canvas.restoreToCount(saved);
}

/**
 * Whether fillStrokeSilhouette gives the layer an outline (given one): its fill, after binding, is
 * not none. Known without drawing, for the cost estimate (render/cost.ts).
 */
export function hasFill(bindings: Bindings, layer: FillStrokeLayer, path: string): boolean {
  return (
    resolvePaintOrNone(bindings, layer.bind, "fill", layer.fill, `${path}.fill`, layer.id).value !== null
  );
}

/**
 * The silhouette of an outline kind: its outline, grown by a centred or outside stroke, at its most
 * opaque paint. Null (the shadows are then filtered) without an outline or a fill: a stroke-only
 * outline casts only its line, which the filter draws exactly. Takes ownership of `outline`.
 */
export function fillStrokeSilhouette(
  ctx: PaintContext,
  layer: FillStrokeLayer,
  outline: Path | null,
  path: string,
  defaultAlign: StrokeAlignT,
): Silhouette | null {
  if (outline === null) return null;
  const { ck, bindings } = ctx;
  const fill = resolvePaintOrNone(bindings, layer.bind, "fill", layer.fill, `${path}.fill`, layer.id);
  if (fill.value === null) {
    outline.delete();
    return null;
  }
  let alpha = paintAlpha(fill.value, fill.path);
  const stroke = layer.stroke;
  if (!stroke) return { outline, alpha };
  const color = resolveLayerPaint(bindings, layer, "stroke.color", stroke.color, path);
  alpha = Math.max(alpha, paintAlpha(color.value, color.path));
  const align = stroke.align ?? defaultAlign;
  if (align === "inside") return { outline, alpha };
  const band = outline.makeStroked({
    width: align === "center" ? stroke.width : stroke.width * 2,
    join: strokeJoinOf(ck, stroke.join),
  });
  const grown = band === null ? null : ck.Path.MakeFromOp(outline, band, ck.PathOp.Union);
  band?.delete();
  if (grown === null) return { outline, alpha };
  outline.delete();
  return { outline: grown, alpha };
}

function strokeJoinOf(ck: PaintContext["ck"], join: OutlineStrokeT["join"]) {
  return join === "round"
    ? ck.StrokeJoin.Round
    : join === "bevel"
      ? ck.StrokeJoin.Bevel
      : ck.StrokeJoin.Miter;
}
