import { type Static, Type as T } from "@sinclair/typebox";
import type { CanvasKit, Path } from "canvaskit-wasm";
import { layerCommon } from "../document/common.ts";
import {
  FILL_STROKE_BINDABLE,
  FILL_STROKE_PAINTS,
  fillStrokeErrors,
  fillStrokeOverhang,
  fillStrokeProperties,
  fillStrokeSilhouette,
  paintFillStroke,
} from "../render/fill-stroke.ts";
import { regularVertices, roundedPolygonPath } from "../render/polygon-path.ts";
import { defineLayerKind } from "./kind.ts";

/**
 * A regular polygon: `sides` (3..64) corners, the first straight up, stretched so its bounding box
 * fills the layer's box (a triangle touches the bottom edge; 4 sides make a diamond). `corner_radius`
 * (template px, default 0) rounds every corner. The stroke is inside the outline unless
 * `stroke.align` says otherwise, as for shape layers. Bindable: `fill`, `stroke.color` (and gradient
 * stop colours).
 */
export const PolygonLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("polygon"),
    sides: T.Integer({ minimum: 3, maximum: 64 }),
    ...fillStrokeProperties,
    corner_radius: T.Optional(T.Number({ minimum: 0, maximum: 10_000, default: 0 })),
  },
  { additionalProperties: false },
);

export type PolygonLayerT = Static<typeof PolygonLayer>;

function outline(ck: CanvasKit, layer: PolygonLayerT): Path {
  return roundedPolygonPath(ck, regularVertices(layer.sides, null, layer), layer.corner_radius ?? 0);
}

export const polygonKind = defineLayerKind<PolygonLayerT>({
  type: "polygon",
  selfContained: true,
  schema: PolygonLayer,
  bindable: FILL_STROKE_BINDABLE,
  paints: FILL_STROKE_PAINTS,
  paint(ctx, layer, path) {
    const shape = outline(ctx.ck, layer);
    paintFillStroke(ctx, layer, shape, path, "inside");
    shape.delete();
  },
  overhang: (layer) => fillStrokeOverhang(layer, "inside"),
  silhouette: (ctx, layer, path) => fillStrokeSilhouette(ctx, layer, outline(ctx.ck, layer), path, "inside"),
  outline,
  validate: fillStrokeErrors,
});
