import { type Static, Type as T } from "@sinclair/typebox";
import type { CanvasKit, Path } from "canvaskit-wasm";
import { layerCommon } from "../document/common.ts";
import { svgPathDataError } from "../document/svg-path-data.ts";
import {
  FILL_STROKE_BINDABLE,
  FILL_STROKE_PAINTS,
  fillStrokeErrors,
  fillStrokeOverhang,
  fillStrokeProperties,
  fillStrokeSilhouette,
  paintFillStroke,
} from "../render/fill-stroke.ts";
import { defineLayerKind } from "./kind.ts";

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

export const pathKind = defineLayerKind<PathLayerT>({
  type: "path",
  selfContained: true,
  schema: PathLayer,
  bindable: FILL_STROKE_BINDABLE,
  paints: FILL_STROKE_PAINTS,
  paint(ctx, layer, path) {
    const shape = outline(ctx.ck, layer);
    if (shape === null) return;
    paintFillStroke(ctx, layer, shape, path, "center");
    shape.delete();
  },
  overhang: (layer) => fillStrokeOverhang(layer, "center"),
  silhouette: (ctx, layer, path) => fillStrokeSilhouette(ctx, layer, outline(ctx.ck, layer), path, "center"),
  outline,
  validate(layer, path) {
    const errors = fillStrokeErrors(layer, path);
    const syntax = svgPathDataError(layer.d);
    if (syntax !== null) errors.push({ path: `${path}.d`, message: `is not SVG path data: ${syntax}` });
    return errors;
  },
});
