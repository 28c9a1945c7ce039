import { Type as T, type TSchema } from "@sinclair/typebox";
import { type LayerCommonT, layerCommon, Padding, type PaddingT } from "../common.ts";
import { defineLayer } from "./kind.ts";
import type { Layer } from "./registry.ts";

/**
 * Children are positioned relative to the group's origin; the group's rotation, opacity and effects
 * apply to all. A group that hugs (`layout: { width: "hug" }`) becomes its children's bounding box
 * plus `padding` on that axis, the children keeping their places relative to each other; a child
 * that fills an axis (`layout: { width: "fill" }`: a bubble's or button's shape) spans the group's
 * box there and is not counted in the bounding box.
 */
export interface GroupLayerT extends LayerCommonT {
  type: "group";
  padding?: PaddingT;
  layers: Layer[];
}

/**
 * The group schema, given the schema of one child (any leaf kind, or a container by `$ref`: groups
 * and stacks nest in each other, registry.ts).
 */
export function groupSchema(child: TSchema): TSchema {
  return T.Object(
    {
      ...layerCommon,
      type: T.Literal("group"),
      padding: T.Optional(Padding),
      layers: T.Array(child, { maxItems: 500 }),
    },
    { additionalProperties: false, $id: "GroupLayer" },
  );
}

/** The group's document half, given its schema (built from the leaf kinds by the registry). */
export function groupDefinition(schema: TSchema) {
  return defineLayer<GroupLayerT>({
    type: "group",
    schema,
    bindable: {},
    hugs: true,
    children: (layer) => layer.layers,
  });
}
