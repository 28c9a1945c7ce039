import type { CanvasKit, Path } from "canvaskit-wasm";
import type { PolygonLayerT } from "../../document/layers/polygon.ts";
import { fillStrokeOverhang, fillStrokeSilhouette, hasFill, paintFillStroke } from "../fill-stroke.ts";
import { regularVertices, roundedPolygonPath } from "../polygon-path.ts";
import { definePainter } from "./painter.ts";

function outline(ck: CanvasKit, layer: PolygonLayerT): Path {
  return roundedPolygonPath(ck, regularVertices(layer.sides, null, layer), layer.corner_radius ?? 0);
}

export const polygonPainter = definePainter<PolygonLayerT>({
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
