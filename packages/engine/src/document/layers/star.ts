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

export const starDefinition = defineLayer<StarLayerT>({
  type: "star",
  schema: StarLayer,
  bindable: FILL_STROKE_BINDABLE,
  paints: FILL_STROKE_PAINTS,
  canMask: true,
  validate: fillStrokeErrors,
});
