import type { CanvasKit, InputRRect, Path } from "canvaskit-wasm";
import type { ShapeLayerT } from "../../document/layers/shape.ts";
import type { PaintContext } from "../context.ts";
import { fillArea } from "../gradient-bands.ts";
import { applyPaint, resolveLayerPaint, resolvePaintOrNone } from "../paint.ts";
import { paintAlpha } from "../shadows.ts";
import { definePainter } from "./painter.ts";

export const shapePainter = definePainter<ShapeLayerT>({
  selfContained: true,
  paint: paintShape,
  // The stroke is inside the box: the box's outline is the whole shape.
  silhouette(ctx, layer, path) {
    const fill = resolvePaintOrNone(ctx.bindings, layer.bind, "fill", layer.fill, `${path}.fill`, layer.id);
    if (fill.value === null) return null;
    let alpha = paintAlpha(fill.value, fill.path);
    if (layer.stroke) {
      const { color } = layer.stroke;
      const stroke = resolveLayerPaint(ctx.bindings, layer, "stroke.color", color, path);
      alpha = Math.max(alpha, paintAlpha(stroke.value, stroke.path));
    }
    const { x, y, width: w, height: h } = layer;
    const rrect =
      layer.shape === "ellipse"
        ? ctx.ck.RRectXY(ctx.ck.XYWHRect(x, y, w, h), w / 2, h / 2)
        : roundedRect(x, y, w, h, cornerRadii(layer.corner_radius), 0);
    return { outline: shapeOutline(ctx.ck, layer), alpha, rrect };
  },
  castsSilhouette: (layer, path, bindings) =>
    resolvePaintOrNone(bindings, layer.bind, "fill", layer.fill, `${path}.fill`, layer.id).value !== null,
  outline: shapeOutline,
});

type Radii = readonly [number, number, number, number];

function cornerRadii(radius: ShapeLayerT["corner_radius"]): Radii {
  if (radius === undefined) return [0, 0, 0, 0];
  if (typeof radius === "number") return [radius, radius, radius, radius];
  return radius;
}

/** Skia's RRect layout: rect, then (rx, ry) for top-left, top-right, bottom-right, bottom-left. */
function roundedRect(x: number, y: number, w: number, h: number, radii: Radii, inset: number): InputRRect {
  const [tl, tr, br, bl] = radii.map((r) => Math.max(0, r - inset)) as unknown as Radii;
  return Float32Array.of(x + inset, y + inset, x + w - inset, y + h - inset, tl, tl, tr, tr, br, br, bl, bl);
}

/** The box's rectangle (with its corner radii) or ellipse, as another layer's mask. */
function shapeOutline(ck: CanvasKit, layer: ShapeLayerT): Path {
  const { x, y, width: w, height: h } = layer;
  const builder = new ck.PathBuilder();
  if (layer.shape === "ellipse") builder.addOval(ck.XYWHRect(x, y, w, h));
  else builder.addRRect(roundedRect(x, y, w, h, cornerRadii(layer.corner_radius), 0));
  return builder.detachAndDelete();
}

/**
 * Rectangles (corner radii, one or four) and ellipses. The stroke is drawn inside the box, as design
 * tools do by default, so a shape never grows past the box the designer drew.
 */
function paintShape(ctx: PaintContext, layer: ShapeLayerT, path: string): void {
  const { ck, canvas, paint } = ctx;
  const fill = resolvePaintOrNone(ctx.bindings, layer.bind, "fill", layer.fill, `${path}.fill`, layer.id);
  const radii = cornerRadii(layer.corner_radius);
  const draw = (inset: number) => {
    const { x, y, width: w, height: h } = layer;
    if (layer.shape === "ellipse") {
      canvas.drawOval(ck.LTRBRect(x + inset, y + inset, x + w - inset, y + h - inset), paint);
    } else {
      canvas.drawRRect(roundedRect(x, y, w, h, radii, inset), paint);
    }
  };
  paint.setAntiAlias(true);
  paint.setAlphaf(1);
  if (fill.value !== null) {
    fillArea(ctx, fill.value, fill.path, layer, {
      clip: () => {
        const outline = shapeOutline(ck, layer);
        canvas.clipPath(outline, ck.ClipOp.Intersect, true);
        outline.delete();
      },
      drawSolid: () => draw(0),
    });
  }
  const stroke = layer.stroke;
  if (stroke) {
    const color = resolveLayerPaint(ctx.bindings, layer, "stroke.color", stroke.color, path);
    const width = Math.min(stroke.width, layer.width, layer.height);
    paint.setStyle(ck.PaintStyle.Stroke);
    paint.setStrokeWidth(width);
    const release = applyPaint(ctx, paint, color.value, color.path, layer);
    draw(width / 2);
    release();
  }
}
