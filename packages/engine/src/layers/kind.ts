import type { TSchema } from "@sinclair/typebox";
import type { CanvasKit, Path } from "canvaskit-wasm";
import type { ImageRequest } from "../api.ts";
import type { SlotT, SlotType } from "../document/schema.ts";
import type { ValidationError } from "../document/validate-paths.ts";
import type { SlotValueError } from "../document/values.ts";
import type { Bindings } from "../render/bindings.ts";
import type { PaintContext } from "../render/context.ts";
import type { Silhouette } from "../render/shadows.ts";

/** What every layer value has, whatever its kind (see `layerCommon` in document/common.ts). */
export interface LayerBase {
  type: string;
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  bind?: Readonly<Record<string, string>>;
}

/** What a kind's semantic check may consult besides the layer itself. */
export interface DocumentContext {
  slots: ReadonlyMap<string, SlotT>;
  /** Ids of the frame's layers (at any depth) -> their layer, for masks naming another layer. */
  layersById: ReadonlyMap<string, LayerBase>;
}

/**
 * One layer type: its schema, what it lets slots bind, and how it is drawn. Each kind is one file in
 * `src/layers/`, registered in `registry.ts`; nothing else in the engine switches over layer types.
 */
export interface LayerKind<L extends LayerBase = LayerBase> {
  readonly type: L["type"];
  /** TypeBox schema of the layer object (with `...layerCommon`). */
  readonly schema: TSchema;
  /** Bindable property path -> the slot type it takes (`text` -> text, `fill` -> color). */
  readonly bindable: Readonly<Record<string, SlotType>>;
  /**
   * Property paths holding a Paint (document/common.ts). Besides the property itself, the colour of
   * each gradient stop is bindable to a colour slot: `fill.stops[1].color`.
   */
  readonly paints?: readonly string[];
  /** Draws the layer in its parent's coordinate space (rotation, flip, mask, opacity and effects applied). */
  paint(ctx: PaintContext, layer: L, path: string): void;
  /**
   * Template pixels the drawing may reach beyond the box (text overhang, centred strokes); bounds the
   * offscreen layer used for opacity. Default 1.
   */
  overhang?(layer: L): number;
  /**
   * What the layer casts drop shadows from (its outline and opacity), when the kind can tell without
   * drawing; the shadows are then blurred outlines (render/shadows.ts). Without it, or when it returns
   * null, shadows are a drop-shadow filter of the layer's pixels (slower, exact for any content).
   */
  silhouette?(ctx: PaintContext, layer: L, path: string): Silhouette | null;
  /**
   * Its drawing depends on nothing but the layer's own properties and the transform (no fonts,
   * images or icons): an unbound shadowed layer of such a kind is drawn once into a raster and copied
   * onto later renders (render/layer-rasters.ts).
   */
  readonly selfContained?: boolean;
  /**
   * The kind applies its mask itself (`ctx.mask`, not clipped on the canvas): images fold it into
   * their pixels, since a clip under an image is slow in the engine's Skia (render/image-pixels.ts).
   */
  readonly masksItself?: boolean;
  /** The layer's outline in its parent's coordinates, when it can serve as another layer's mask. */
  outline?(ck: CanvasKit, layer: L): Path | null;
  /**
   * Drawn even when the box has no area (a line across a box of height 0); other leaf layers with an
   * empty box draw nothing and are skipped.
   */
  readonly drawsWithoutArea?: boolean;
  /** Child layers, for kinds that contain others (groups): visited for validation, images and fonts. */
  children?(layer: L): readonly LayerBase[];
  /** Offset of the children's coordinate space (a group's origin). */
  childOrigin?(layer: L): { x: number; y: number };
  /** Rules JSON Schema cannot express (sizes that must agree, names that must exist). */
  validate?(layer: L, path: string, doc: DocumentContext): ValidationError[];
  /** Images the host must prepare for this layer (after binding). */
  images?(layer: L, path: string, bindings: Bindings, scale: number): ImageRequest[];
  /**
   * Checks a render's slot values that the slot type alone cannot (a QR code too long for its level, a
   * barcode with letters): run before anything is charged.
   */
  checkValues?(layer: L, path: string, bindings: Bindings): SlotValueError[];
  /** Font families the layer draws text in (the host loads uploaded ones before drawing). */
  fontFamilies?(layer: L): readonly string[];
}

/** Declares a kind with its layer type inferred; registry.ts lists every kind. */
export function defineLayerKind<L extends LayerBase>(kind: LayerKind<L>): LayerKind<L> {
  return kind;
}
