import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon, Paint } from "../common.ts";
import { defineLayer } from "./kind.ts";

/** A point of the layer's box in fractions: {x: 0, y: 0} is its top-left corner, {x: 1, y: 1} its bottom-right. */
const BoxPoint = T.Object(
  { x: T.Number({ minimum: 0, maximum: 1 }), y: T.Number({ minimum: 0, maximum: 1 }) },
  { additionalProperties: false },
);

export const LineStroke = T.Object(
  { color: Paint, width: T.Number({ exclusiveMinimum: 0, maximum: 1000 }) },
  { additionalProperties: false },
);

/**
 * A straight line from `from` to `to`, points of the box in fractions (default: top-left to
 * bottom-right), so the line follows the box when it is moved or resized, as a designer drags it.
 * A box of height 0 makes a horizontal line across its width and a box of width 0 a vertical one; an
 * upward diagonal is `from: {x: 0, y: 1}, to: {x: 1, y: 0}`. The stroke (`width` in template px) is
 * centred on the line; `cap` ends it ("butt", the default, ends exactly at the points; "round" and
 * "square" reach half the width past them); `dash` is on/off lengths in template px repeated along
 * the line, as SVG's stroke-dasharray (an odd count repeats: [5] is [5, 5]). Bindable: `stroke.color`
 * (and its gradient stop colours; a gradient runs across the box grown by half the stroke width).
 */
export const LineLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("line"),
    from: T.Optional(BoxPoint),
    to: T.Optional(BoxPoint),
    stroke: LineStroke,
    cap: T.Optional(
      T.Union([T.Literal("butt"), T.Literal("round"), T.Literal("square")], { default: "butt" }),
    ),
    dash: T.Optional(T.Array(T.Number({ minimum: 0, maximum: 10_000 }), { minItems: 1, maxItems: 16 })),
  },
  { additionalProperties: false },
);

export type LineLayerT = Static<typeof LineLayer>;

export const lineDefinition = defineLayer<LineLayerT>({
  type: "line",
  schema: LineLayer,
  bindable: { "stroke.color": "color" },
  paints: ["stroke.color"],
  validate(layer, path) {
    if (layer.dash === undefined || layer.dash.some((length) => length > 0)) return [];
    return [{ path: `${path}.dash`, message: "must have a length above 0 (all zeros draw no dashes)" }];
  },
});
