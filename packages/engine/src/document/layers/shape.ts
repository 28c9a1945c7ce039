import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon, Paint } from "../common.ts";
import { defineLayer } from "./kind.ts";

export const CornerRadius = T.Union([
  T.Number({ minimum: 0 }),
  /** top-left, top-right, bottom-right, bottom-left */
  T.Tuple([
    T.Number({ minimum: 0 }),
    T.Number({ minimum: 0 }),
    T.Number({ minimum: 0 }),
    T.Number({ minimum: 0 }),
  ]),
]);

export const Stroke = T.Object(
  { color: Paint, width: T.Number({ exclusiveMinimum: 0, maximum: 1000 }) },
  { additionalProperties: false },
);

/** Bindable properties: `fill`, `stroke.color`. */
export const ShapeLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("shape"),
    shape: T.Union([T.Literal("rectangle"), T.Literal("ellipse")]),
    /** A paint (colour or gradient across the box); null: no fill. */
    fill: T.Union([Paint, T.Null()]),
    stroke: T.Optional(T.Union([Stroke, T.Null()])),
    corner_radius: T.Optional(CornerRadius),
  },
  { additionalProperties: false },
);

export type ShapeLayerT = Static<typeof ShapeLayer>;

export const shapeDefinition = defineLayer<ShapeLayerT>({
  type: "shape",
  schema: ShapeLayer,
  bindable: { fill: "color", "stroke.color": "color" },
  paints: ["fill", "stroke.color"],
  canMask: true,
  validate(layer, path) {
    if (layer.bind?.["stroke.color"] !== undefined && (layer.stroke === undefined || layer.stroke === null)) {
      return [
        {
          path: `${path}.bind["stroke.color"]`,
          message: 'is bound, but the layer has no stroke to colour (add "stroke")',
        },
      ];
    }
    return [];
  },
});
