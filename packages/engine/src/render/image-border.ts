import { type Static, Type as T } from "@sinclair/typebox";
import { Paint, type PaintT } from "../document/common.ts";
import type { LayerBase } from "../layers/kind.ts";
import type { PaintContext } from "./context.ts";
import { applyPaint, resolvePaint } from "./paint.ts";

/**
 * An image layer's border: `width` template px drawn inside the edge of what shows of the image, so
 * it follows the layer's mask when there is one (a ring round a circle avatar), else the box with the
 * image's `corner_radius`. `color` is a Paint (gradients run across the box), bindable as
 * `border.color`.
 */
export const ImageBorder = T.Object(
  { width: T.Number({ exclusiveMinimum: 0, maximum: 1000 }), color: Paint },
  { additionalProperties: false },
);

export type ImageBorderT = Static<typeof ImageBorder>;

interface BorderedLayer extends LayerBase {
  border?: { width: number; color: PaintT } | undefined;
  corner_radius?: number | undefined;
}

/**
 * Strokes the outline twice as wide as the border, clipped to the outline, so exactly `width` lies
 * inside it whatever its shape (the mask's clip is already on the canvas).
 */
export function paintImageBorder(ctx: PaintContext, layer: BorderedLayer, path: string): void {
  const border = layer.border;
  if (border === undefined) return;
  const { ck, canvas, paint } = ctx;
  const color = resolvePaint(
    ctx.bindings,
    layer.bind,
    "border.color",
    border.color,
    `${path}.border.color`,
    layer.id,
  );
  paint.setAntiAlias(true);
  paint.setStyle(ck.PaintStyle.Stroke);
  paint.setStrokeWidth(border.width * 2);
  const release = applyPaint(ck, paint, color.value, color.path, layer);
  if (ctx.mask !== null) {
    canvas.drawPath(ctx.mask, paint);
  } else {
    const radius = layer.corner_radius ?? 0;
    const box = ck.RRectXY(ck.XYWHRect(layer.x, layer.y, layer.width, layer.height), radius, radius);
    const saved = canvas.save();
    canvas.clipRRect(box, ck.ClipOp.Intersect, true);
    canvas.drawRRect(box, paint);
    canvas.restoreToCount(saved);
  }
  release();
}
