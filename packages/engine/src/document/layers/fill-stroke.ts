import { type Static, Type as T } from "@sinclair/typebox";
import { Paint, type PaintT } from "../common.ts";
import type { SlotType } from "../schema.ts";
import type { ValidationError } from "../validate-paths.ts";
import type { LayerBase } from "./kind.ts";

/**
 * Fill and stroke of the outline kinds (polygon, star, path): their shared schema properties and rules
 * (render/fill-stroke.ts draws them), so the three take strokes, gradients and bindings alike.
 */

export const StrokeAlign = T.Union([T.Literal("inside"), T.Literal("center"), T.Literal("outside")]);
export const StrokeJoin = T.Union([T.Literal("miter"), T.Literal("round"), T.Literal("bevel")]);

/**
 * `width` in template px. `align`: where the stroke sits on the outline (inside it, centred on it, or
 * outside it); each kind documents its default. `join`: corners (default "miter", Skia's limit 4:
 * sharper corners are bevelled).
 */
export const OutlineStroke = T.Object(
  {
    color: Paint,
    width: T.Number({ exclusiveMinimum: 0, maximum: 1000 }),
    align: T.Optional(StrokeAlign),
    join: T.Optional(StrokeJoin),
  },
  { additionalProperties: false },
);

/** Spread into a kind's schema: `fill` (null: none) and the optional `stroke`. */
export const fillStrokeProperties = {
  fill: T.Union([Paint, T.Null()]),
  stroke: T.Optional(T.Union([OutlineStroke, T.Null()])),
};

export const FILL_STROKE_BINDABLE: Readonly<Record<string, SlotType>> = {
  fill: "color",
  "stroke.color": "color",
};
export const FILL_STROKE_PAINTS: readonly string[] = ["fill", "stroke.color"];

export type OutlineStrokeT = Static<typeof OutlineStroke>;
export type StrokeAlignT = Static<typeof StrokeAlign>;

export interface FillStrokeLayer extends LayerBase {
  fill: PaintT | null;
  stroke?: OutlineStrokeT | null | undefined;
}

/** A bound stroke colour needs a stroke to colour (as for shape layers). */
export function fillStrokeErrors(
  layer: Pick<FillStrokeLayer, "bind" | "stroke">,
  path: string,
): ValidationError[] {
  if (layer.bind?.["stroke.color"] === undefined || (layer.stroke ?? null) !== null) return [];
  return [
    {
      path: `${path}.bind["stroke.color"]`,
      message: 'is bound, but the layer has no stroke to colour (add "stroke")',
    },
  ];
}
