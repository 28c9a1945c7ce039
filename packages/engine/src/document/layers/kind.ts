import type { TSchema } from "@sinclair/typebox";
import type { ListItemValue } from "../../api.ts";
import type { SlotT, SlotType } from "../schema.ts";
import type { ValidationError } from "../validate-paths.ts";
import type { SlotValueError } from "../values.ts";

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
  /** The names of the document's inline styles (tags of its rich text). */
  inlineStyles: ReadonlySet<string>;
}

/** A bound property's value in one render, with where it came from (render/bindings.ts resolves it). */
export interface BoundValue {
  value: string;
  /** The slot the property is bound to, or null when unbound. */
  slot: string | null;
  /** JSON path to report when the value is bad: `values.<slot>` for request values, else the design path. */
  path: string;
}

/**
 * The slot values of one render as a kind's value check reads them. The renderer's `Bindings` is one;
 * declared here so that the document half needs nothing of the renderer.
 */
export interface PropertyValues {
  resolve(
    bind: Readonly<Record<string, string>> | undefined,
    property: string,
    designValue: string,
    designPath: string,
    layerId: string | null,
  ): BoundValue;
  /** A property bound to a number slot (or a number field of a list item). */
  number(
    bind: Readonly<Record<string, string>> | undefined,
    property: string,
    designValue: number,
    designPath: string,
    layerId: string | null,
  ): { value: number; slot: string | null; path: string };
  /** A property bound to a list slot: its items. */
  list(
    bind: Readonly<Record<string, string>> | undefined,
    property: string,
    designValue: readonly ListItemValue[],
    designPath: string,
    layerId: string | null,
  ): { value: readonly ListItemValue[]; slot: string | null; path: string };
}

/**
 * The document half of one layer type: its schema, what it lets slots bind and the rules JSON Schema
 * cannot express. Each is a file in this folder, registered in `registry.ts`; its drawing is the
 * painter of the same type in render/painters/ (joined by `type` in render/painters/registry.ts).
 * Nothing here draws, so validating a document loads no rendering code.
 */
export interface LayerDefinition<L extends LayerBase = LayerBase> {
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
  /**
   * Its outline can mask another layer (`mask: { layer }`): validation accepts it as a mask, and its
   * painter draws the outline (`outline`; the painter registry checks the two agree).
   */
  readonly canMask?: boolean;
  /**
   * Its box can hug its content (`layout.width`/`height: "hug"`): its painter measures it (text lines,
   * a stack's children). Other kinds refuse `hug`.
   */
  readonly hugs?: boolean;
  /**
   * Its box never changes size (`fill`, `hug` and a stack's stretch leave it as designed): the host
   * prepares its pixels at that size before drawing (images).
   */
  readonly keepsSize?: boolean;
  /** Layers of this kind nested inside each other, at most (validation refuses deeper nesting). */
  readonly maxNesting?: number;
  /** Child layers, for kinds that contain others (groups): visited for validation, images and fonts. */
  children?(layer: L): readonly LayerBase[];
  /** Rules JSON Schema cannot express (sizes that must agree, names that must exist). */
  validate?(layer: L, path: string, doc: DocumentContext): ValidationError[];
  /**
   * Checks a render's slot values that the slot type alone cannot (a value the layer cannot show, such
   * as a code too long for its symbology): run before anything is charged (render/check-values.ts).
   */
  checkValues?(layer: L, path: string, values: PropertyValues): SlotValueError[];
  /** Font families the layer draws text in (the host loads uploaded ones before drawing). */
  fontFamilies?(layer: L): readonly string[];
}

/** Declares a layer type's document half with its layer type inferred; registry.ts lists every one. */
export function defineLayer<L extends LayerBase>(definition: LayerDefinition<L>): LayerDefinition<L> {
  return definition;
}
