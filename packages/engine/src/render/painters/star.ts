import type { CanvasKit, Path } from "canvaskit-wasm";
import { STAR_INNER_RADIUS, type StarLayerT } from "../../document/layers/star.ts";
import { fillStrokeOverhang, fillStrokeSilhouette, hasFill, paintFillStroke } from "../fill-stroke.ts";
import { regularVertices, roundedPolygonPath } from "../polygon-path.ts";
import { definePainter } from "./painter.ts";

function outline(ck: CanvasKit, layer: StarLayerT): Path {
  const vertices = regularVertices(layer.points, layer.inner_radius ?? STAR_INNER_RADIUS, layer);
  return roundedPolygonPath(ck, vertices, layer.corner_radius ?? 0);
}

export const starPainter = definePainter<StarLayerT>({
  selfContained: true,
  paint(ctx, layer, path) {
    const shape = outline(ctx.ck, layer);
    paintFillStroke(ctx, layer, shape, path, "inside");
    shape.delete();
  },
  overhang: (layer) => fillStrokeOverhang(layer, "inside"),
  silhouette: (ctx, layer, path) => fillStrokeSilhouette(ctx, layer, outline(ctx.ck, layer), path, "inside"),
  castsSilhouette: (layer, path, bindings) => hasFill(bindings, layer, path),
  outline,
});
