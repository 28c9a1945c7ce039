import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon } from "../common.ts";
import {
  FILL_STROKE_BINDABLE,
  FILL_STROKE_PAINTS,
  fillStrokeErrors,
  fillStrokeProperties,
} from "./fill-stroke.ts";
import { defineLayer } from "./kind.ts";

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

export const polygonDefinition = defineLayer<PolygonLayerT>({
  type: "polygon",
  schema: PolygonLayer,
  bindable: FILL_STROKE_BINDABLE,
  paints: FILL_STROKE_PAINTS,
  canMask: true,
  validate: fillStrokeErrors,
});
