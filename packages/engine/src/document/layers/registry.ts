import { Type as T, type TSchema } from "@sinclair/typebox";
import { barcodeDefinition } from "./barcode.ts";
import { chartDefinition } from "./chart.ts";
import { type GroupLayerT, groupDefinition, groupSchema } from "./group.ts";
import { iconDefinition } from "./icon.ts";
import { imageDefinition } from "./image.ts";
import type { LayerBase, LayerDefinition } from "./kind.ts";
import { lineDefinition } from "./line.ts";
import { pathDefinition } from "./path.ts";
import { polygonDefinition } from "./polygon.ts";
import { progressDefinition } from "./progress.ts";
import { qrDefinition } from "./qr.ts";
import { ratingDefinition } from "./rating.ts";
import { shapeDefinition } from "./shape.ts";
import { type StackLayerT, stackDefinition, stackSchema } from "./stack.ts";
import { starDefinition } from "./star.ts";
import { textDefinition } from "./text.ts";

// Each layer type's public names, exported by @pictor/engine (through document/schema.ts).
export { BarcodeLayer, type BarcodeLayerT } from "./barcode.ts";
export {
  ChartDatum,
  type ChartDatumT,
  ChartLayer,
  type ChartLayerT,
  MAX_CHART_POINTS,
} from "./chart.ts";
export type { GroupLayerT } from "./group.ts";
export { IconLayer, type IconLayerT } from "./icon.ts";
export { ICON_NAMES, ICON_SET } from "./icon-names.ts";
export { ImageLayer, type ImageLayerT } from "./image.ts";
export { LineLayer, type LineLayerT } from "./line.ts";
export { PathLayer, type PathLayerT } from "./path.ts";
export { PolygonLayer, type PolygonLayerT } from "./polygon.ts";
export {
  ProgressLabel,
  type ProgressLabelT,
  ProgressLayer,
  type ProgressLayerT,
} from "./progress.ts";
export { QrLayer, type QrLayerT } from "./qr.ts";
export { RatingLayer, type RatingLayerT } from "./rating.ts";
export { CornerRadius, ShapeLayer, type ShapeLayerT, Stroke } from "./shape.ts";
export { MAX_STACK_CHILDREN, MAX_STACK_DEPTH, type StackLayerT } from "./stack.ts";
export { StarLayer, type StarLayerT } from "./star.ts";
export { Font, type FontT, TextLayer, type TextLayerT } from "./text.ts";

/**
 * Every layer type the document knows, in one table, in the order the schema's union lists them.
 * Adding a type is its file in this folder (schema, bindable properties, rules), a line here (and its
 * public names above), and its painter in render/painters/; nothing else switches over layer types.
 * The containers (group, stack) come last: their schemas are built from these.
 */
const LEAF_DEFINITIONS = [
  textDefinition,
  imageDefinition,
  shapeDefinition,
  lineDefinition,
  polygonDefinition,
  starDefinition,
  pathDefinition,
  iconDefinition,
  qrDefinition,
  barcodeDefinition,
  ratingDefinition,
  progressDefinition,
  chartDefinition,
] as const;

/** The layer value a definition declares. */
type LayerOf<D> = D extends LayerDefinition<infer L> ? L : never;

/** Any layer of a document: derived from the table, so a new type needs no second list. */
export type Layer = LayerOf<(typeof LEAF_DEFINITIONS)[number]> | GroupLayerT | StackLayerT;

/** The layer of one type: `LayerOfType<"text">` is a text layer. */
export type LayerOfType<K extends Layer["type"]> = Extract<Layer, { type: K }>;

/**
 * What a container holds: any leaf kind, or a container by `$ref` to its `$id` (groups and stacks nest
 * in each other; validate-schema.ts compiles the checker with both as references).
 */
export const ChildLayer = T.Union([
  ...LEAF_DEFINITIONS.map((definition) => definition.schema),
  T.Ref("GroupLayer"),
  T.Ref("StackLayer"),
]);

export const GroupLayer = groupSchema(ChildLayer);
export const StackLayer = stackSchema(ChildLayer);
/** The containers' schemas, by the `$id` their children's `$ref`s name. */
export const CONTAINER_SCHEMAS: readonly TSchema[] = [GroupLayer, StackLayer];

export const LAYER_DEFINITIONS: readonly LayerDefinition[] = [
  ...LEAF_DEFINITIONS,
  groupDefinition(GroupLayer),
  stackDefinition(StackLayer),
] as unknown as LayerDefinition[];
export const LAYER_SCHEMAS: readonly TSchema[] = LAYER_DEFINITIONS.map((definition) => definition.schema);

const BY_TYPE: ReadonlyMap<string, LayerDefinition> = new Map(
  LAYER_DEFINITIONS.map((definition) => [definition.type, definition]),
);

/** The document half of a validated layer's type. */
export function definitionOf(layer: LayerBase): LayerDefinition {
  const definition = BY_TYPE.get(layer.type);
  if (definition === undefined) throw new Error(`unknown layer type ${JSON.stringify(layer.type)}`);
  return definition;
}

/** Every layer type, in the table's order (the order error messages and the JSON Schema list them). */
export function layerTypes(): string[] {
  return [...BY_TYPE.keys()];
}
