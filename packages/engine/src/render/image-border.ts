import type { Canvas, Path } from "canvaskit-wasm";
import type { PaintT } from "../document/common.ts";
import type { LayerBase } from "../document/layers/kind.ts";
import type { PaintContext } from "./context.ts";
import { applyPaint, resolvePaint } from "./paint.ts";

/** Draws an image layer's `border` (document/layers/image.ts says what it is). */

interface BorderedLayer extends LayerBase {
  border?: { width: number; color: PaintT } | undefined;
  corner_radius?: number | undefined;
}

/**
 * The layer's border, or null: `key` names what it draws, `draw` strokes the outline twice as wide as
 * the border, clipped to the outline, so exactly `width` lies inside it whatever its shape, on a
 * canvas in the layer's coordinates (`mask`: the layer's mask outline there, or null).
 */
export function imageBorder(
  ctx: PaintContext,
  layer: BorderedLayer,
  path: string,
): { key: string; draw(canvas: Canvas, mask: Path | null): void } | null {
  const border = layer.border;
  if (border === undefined) return null;
  const { ck, paint } = ctx;
  const color = resolvePaint(
    ctx.bindings,
    layer.bind,
    "border.color",
    border.color,
    `${path}.border.color`,
    layer.id,
  );
  return {
    key: JSON.stringify([border.width, color.value]),
    draw(canvas, mask) {
      paint.setAntiAlias(true);
      paint.setStyle(ck.PaintStyle.Stroke);
      paint.setStrokeWidth(border.width * 2);
      const release = applyPaint(ctx, paint, color.value, color.path, layer);
      const saved = canvas.save();
      if (mask !== null) {
        canvas.clipPath(mask, ck.ClipOp.Intersect, true);
        canvas.drawPath(mask, paint);
      } else {
        const radius = layer.corner_radius ?? 0;
        const box = ck.RRectXY(ck.XYWHRect(layer.x, layer.y, layer.width, layer.height), radius, radius);
        canvas.clipRRect(box, ck.ClipOp.Intersect, true);
        canvas.drawRRect(box, paint);
      }
      canvas.restoreToCount(saved);
      release();
    },
  };
}
