import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon } from "../common.ts";
import { svgPathDataError } from "../svg-path-data.ts";
import {
  FILL_STROKE_BINDABLE,
  FILL_STROKE_PAINTS,
  fillStrokeErrors,
  fillStrokeProperties,
} from "./fill-stroke.ts";
import { defineLayer } from "./kind.ts";

const Length = T.Number({ exclusiveMinimum: 0, maximum: 1_000_000 });
const Coordinate = T.Number({ minimum: -1_000_000, maximum: 1_000_000 });

/**
 * A vector outline from SVG path data (`d`, as in an SVG `<path>`), placed in the layer's box: the
 * `view_box` ([min x, min y, width, height] in path units, as SVG's viewBox; default the path's own
 * bounds) is scaled into the box, keeping its aspect ratio and centred (`fit: "contain"`, SVG's
 * default) or stretched to it (`fit: "fill"`). `fill_rule` is SVG's (default "nonzero"). The stroke
 * width is in template px (not scaled with the path) and the stroke is centred on the outline unless
 * `stroke.align` says otherwise, as SVG draws it (open subpaths have no inside). Bindable: `fill`,
 * `stroke.color` (and gradient stop colours).
 */
export const PathLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("path"),
    d: T.String({ maxLength: 100_000 }),
    view_box: T.Optional(T.Tuple([Coordinate, Coordinate, Length, Length])),
    fit: T.Optional(T.Union([T.Literal("contain"), T.Literal("fill")], { default: "contain" })),
    fill_rule: T.Optional(T.Union([T.Literal("nonzero"), T.Literal("evenodd")], { default: "nonzero" })),
    ...fillStrokeProperties,
  },
  { additionalProperties: false },
);

export type PathLayerT = Static<typeof PathLayer>;

export const pathDefinition = defineLayer<PathLayerT>({
  type: "path",
  schema: PathLayer,
  bindable: FILL_STROKE_BINDABLE,
  paints: FILL_STROKE_PAINTS,
  canMask: true,
  validate(layer, path) {
    const errors = fillStrokeErrors(layer, path);
    const syntax = svgPathDataError(layer.d);
    if (syntax !== null) errors.push({ path: `${path}.d`, message: `is not SVG path data: ${syntax}` });
    return errors;
  },
});
