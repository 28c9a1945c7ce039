import type { Layer } from "../document/schema.ts";
import type { PaintContext } from "./context.ts";
import { isDrawn } from "./geometry.ts";
import { paintImage } from "./images.ts";
import { paintShape } from "./shapes.ts";
import { paintText } from "./text.ts";

/** Paints layers in order; `path` is the JSON path of their parent (frame or group). */
export function paintLayers(ctx: PaintContext, layers: readonly Layer[], path: string): void {
  layers.forEach((layer, index) => {
    if (isDrawn(layer)) paintLayer(ctx, layer, `${path}.layers[${index}]`);
  });
}

/**
 * Common layer properties: rotation (degrees clockwise about the box centre) and opacity. Opacity < 1
 * goes through a layer bounded to the box (plus room for text overhang) so overlapping parts of one
 * layer (fill and stroke, a group's children) blend once, as in design tools.
 */
function paintLayer(ctx: PaintContext, layer: Layer, path: string): void {
  const { canvas, ck } = ctx;
  const rotation = layer.rotation ?? 0;
  const opacity = layer.opacity ?? 1;
  const saved = canvas.save();
  if (rotation !== 0) canvas.rotate(rotation, layer.x + layer.width / 2, layer.y + layer.height / 2);
  if (opacity < 1) {
    const paint = new ck.Paint();
    paint.setAlphaf(opacity);
    canvas.saveLayer(paint, layer.type === "group" ? null : layerBounds(ctx, layer));
    paint.delete();
  }
  switch (layer.type) {
    case "text":
      paintText(ctx, layer, path);
      break;
    case "image":
      paintImage(ctx, layer, path);
      break;
    case "shape":
      paintShape(ctx, layer, path);
      break;
    case "group":
      canvas.translate(layer.x, layer.y);
      paintLayers(ctx, layer.layers as Layer[], path);
      break;
  }
  canvas.restoreToCount(saved);
}

function layerBounds(ctx: PaintContext, layer: Layer): Float32Array {
  // Glyphs may overhang their box (italics, accents, a last line cut by the height): allow one font size.
  const margin = layer.type === "text" ? layer.font.size * 2 : 1;
  return ctx.ck.LTRBRect(
    layer.x - margin,
    layer.y - margin,
    layer.x + layer.width + margin,
    layer.y + layer.height + margin,
  );
}
