import type { InputRRect } from "canvaskit-wasm";
import type { ShapeLayerT } from "../document/schema.ts";
import { parseHexColor } from "./color.ts";
import type { PaintContext } from "./context.ts";

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

/**
 * Rectangles (corner radii, one or four) and ellipses. The stroke is drawn inside the box, as design
 * tools do by default, so a shape never grows past the box the designer drew.
 */
export function paintShape(ctx: PaintContext, layer: ShapeLayerT, path: string): void {
  const { ck, canvas, paint } = ctx;
  const fill = ctx.bindings.resolve(layer.bind, "fill", layer.fill, `${path}.fill`, layer.id);
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
    paint.setStyle(ck.PaintStyle.Fill);
    paint.setColor(parseHexColor(fill.value, fill.path));
    draw(0);
  }
  const stroke = layer.stroke;
  if (stroke) {
    const color = ctx.bindings.resolve(
      layer.bind,
      "stroke.color",
      stroke.color,
      `${path}.stroke.color`,
      layer.id,
    );
    const width = Math.min(stroke.width, layer.width, layer.height);
    paint.setStyle(ck.PaintStyle.Stroke);
    paint.setStrokeWidth(width);
    paint.setColor(parseHexColor(color.value, color.path));
    draw(width / 2);
  }
}
