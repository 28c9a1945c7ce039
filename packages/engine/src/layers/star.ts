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
 * A star: `points` (3..64) outer points, the first straight up, with inner corners at `inner_radius`
 * (0..1, a fraction of the outer radius; default 0.5) between them; stretched so its bounding box
 * fills the layer's box. `corner_radius` (template px, default 0) rounds every corner, inner ones
 * too. The stroke is inside the outline unless `stroke.align` says otherwise. Bindable: `fill`,
 * `stroke.color` (and gradient stop colours).
 */
/** The inner corners' radius of a star unless it says otherwise (also the rating layer's stars). */
export const STAR_INNER_RADIUS = 0.5;

export const StarLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("star"),
    points: T.Integer({ minimum: 3, maximum: 64 }),
    inner_radius: T.Optional(T.Number({ minimum: 0, maximum: 1, default: STAR_INNER_RADIUS })),
    ...fillStrokeProperties,
    corner_radius: T.Optional(T.Number({ minimum: 0, maximum: 10_000, default: 0 })),
  },
  { additionalProperties: false },
);

export type StarLayerT = Static<typeof StarLayer>;

function outline(ck: CanvasKit, layer: StarLayerT): Path {
  const vertices = regularVertices(layer.points, layer.inner_radius ?? STAR_INNER_RADIUS, layer);
  return roundedPolygonPath(ck, vertices, layer.corner_radius ?? 0);
}

export const starKind = defineLayerKind<StarLayerT>({
  type: "star",
  selfContained: true,
  schema: StarLayer,
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
