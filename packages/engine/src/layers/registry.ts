import type { TSchema } from "@sinclair/typebox";
import { type BarcodeLayerT, barcodeKind } from "./barcode.ts";
import { type GroupLayerT, groupKind, groupSchema } from "./group.ts";
import { type IconLayerT, iconKind } from "./icon.ts";
import { type ImageLayerT, imageKind } from "./image.ts";
import type { LayerBase, LayerKind } from "./kind.ts";
import { type LineLayerT, lineKind } from "./line.ts";
import { type PathLayerT, pathKind } from "./path.ts";
import { type PolygonLayerT, polygonKind } from "./polygon.ts";
import { type QrLayerT, qrKind } from "./qr.ts";
import { type RatingLayerT, ratingKind } from "./rating.ts";
import { type ShapeLayerT, shapeKind } from "./shape.ts";
import { type StarLayerT, starKind } from "./star.ts";
import { type TextLayerT, textKind } from "./text.ts";

/**
 * Every layer type the document knows, in one table. Adding a type is a file in this folder (schema,
 * layout, drawing) plus a line here and in `Layer`; nothing else switches over layer types.
 */
const LEAF_KINDS = [
  textKind,
  imageKind,
  shapeKind,
  lineKind,
  polygonKind,
  starKind,
  pathKind,
  iconKind,
  qrKind,
  barcodeKind,
  ratingKind,
] as const;

/** Any layer of a document. */
export type Layer =
  | TextLayerT
  | ImageLayerT
  | ShapeLayerT
  | LineLayerT
  | PolygonLayerT
  | StarLayerT
  | PathLayerT
  | IconLayerT
  | QrLayerT
  | BarcodeLayerT
  | RatingLayerT
  | GroupLayerT;

export const GroupLayer = groupSchema(LEAF_KINDS.map((kind) => kind.schema));
const GROUP_KIND = groupKind(GroupLayer);

export const LAYER_KINDS: readonly LayerKind[] = [...LEAF_KINDS, GROUP_KIND] as unknown as LayerKind[];
export const LAYER_SCHEMAS: readonly TSchema[] = LAYER_KINDS.map((kind) => kind.schema);

const BY_TYPE: ReadonlyMap<string, LayerKind> = new Map(LAYER_KINDS.map((kind) => [kind.type, kind]));

/** The kind of a validated layer. */
export function kindOf(layer: LayerBase): LayerKind {
  const kind = BY_TYPE.get(layer.type);
  if (kind === undefined) throw new Error(`unknown layer type ${JSON.stringify(layer.type)}`);
  return kind;
}

export function layerTypes(): string[] {
  return [...BY_TYPE.keys()];
}
