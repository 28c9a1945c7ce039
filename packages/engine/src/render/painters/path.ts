import type { CanvasKit, Path } from "canvaskit-wasm";
import type { PathLayerT } from "../../document/layers/path.ts";
import { fillStrokeOverhang, fillStrokeSilhouette, paintFillStroke } from "../fill-stroke.ts";
import { definePainter } from "./painter.ts";

/**
 * The path placed in the box, or null when Skia cannot parse it (validation already refused what is
 * not path data; this keeps a render from failing should Skia be stricter) or it has no extent.
 */
function outline(ck: CanvasKit, layer: PathLayerT): Path | null {
  const parsed = ck.Path.MakeFromSVGString(layer.d);
  if (parsed === null) return null;
  const [minX, minY, width, height] = layer.view_box ?? boundsBox(parsed.computeTightBounds());
  // An axis with no extent (a straight horizontal or vertical path) takes the other axis's scale.
  let sx = width > 0 ? layer.width / width : Number.POSITIVE_INFINITY;
  let sy = height > 0 ? layer.height / height : Number.POSITIVE_INFINITY;
  if (!Number.isFinite(sx) && !Number.isFinite(sy)) {
    parsed.delete();
    return null;
  }
  if (layer.fit !== "fill" || !Number.isFinite(sx) || !Number.isFinite(sy)) {
    sx = Math.min(sx, sy);
    sy = sx;
  }
  const dx = layer.x + (layer.width - width * sx) / 2 - minX * sx;
  const dy = layer.y + (layer.height - height * sy) / 2 - minY * sy;
  const builder = new ck.PathBuilder(parsed);
  parsed.delete();
  builder.transform([sx, 0, dx, 0, sy, dy, 0, 0, 1]);
  builder.setFillType(layer.fill_rule === "evenodd" ? ck.FillType.EvenOdd : ck.FillType.Winding);
  return builder.detachAndDelete();
}

function boundsBox(bounds: Float32Array): [number, number, number, number] {
  const [left = 0, top = 0, right = 0, bottom = 0] = bounds;
  return [left, top, right - left, bottom - top];
}

export const pathPainter = definePainter<PathLayerT>({
  selfContained: true,
  paint(ctx, layer, path) {
    const shape = outline(ctx.ck, layer);
    if (shape === null) return;
    paintFillStroke(ctx, layer, shape, path, "center");
    shape.delete();
  },
  overhang: (layer) => fillStrokeOverhang(layer, "center"),
  silhouette: (ctx, layer, path) => fillStrokeSilhouette(ctx, layer, outline(ctx.ck, layer), path, "center"),
  outline,
});
