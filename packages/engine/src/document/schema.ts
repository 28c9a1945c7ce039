import { type Static, Type as T } from "@sinclair/typebox";

/**
 * Template document v1: the JSON a designer's template is stored as (in the database, and in Git as
 * templates-as-code). This file is the single source of truth: TypeScript types, the JSON Schema that
 * validates documents, and the OpenAPI components are all derived from it.
 *
 * Binding model: every layer keeps the designer's own values in place; `bind` maps a property path of
 * the layer (e.g. "text", "color", "src", "fill", "stroke.color") to a slot name. A slot a request does
 * not name leaves the designer's value (or the slot's `default`, when it has one) in place.
 */

/** `#RRGGBB` or `#RRGGBBAA` (design values may be translucent; slot values are `#RRGGBB`, spec section 2). */
export const HexColor = T.String({
  pattern: "^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$",
  description: "#RRGGBB or #RRGGBBAA",
});

const SlotName = T.String({
  pattern: "^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
  description: "Slot name used in modifications",
});

/** Property path of a layer -> slot name. */
export const Bindings = T.Record(T.String({ minLength: 1, maxLength: 64 }), SlotName);

export const TextSlot = T.Object(
  {
    name: SlotName,
    type: T.Literal("text"),
    default: T.Optional(T.String({ maxLength: 10_000 })),
    description: T.Optional(T.String({ maxLength: 500 })),
    max_length: T.Optional(T.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
export const ImageSlot = T.Object(
  {
    name: SlotName,
    type: T.Literal("image"),
    default: T.Optional(T.String({ maxLength: 2048 })),
    description: T.Optional(T.String({ maxLength: 500 })),
    /** Folder-bound slot: only assets inside this folder are accepted (spec `image_out_of_folder`). */
    folder: T.Optional(T.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);
export const ColorSlot = T.Object(
  {
    name: SlotName,
    type: T.Literal("color"),
    default: T.Optional(T.String({ pattern: "^#[0-9A-Fa-f]{6}$" })),
    description: T.Optional(T.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export const Slot = T.Union([TextSlot, ImageSlot, ColorSlot]);

const layerCommon = {
  id: T.String({ minLength: 1, maxLength: 64 }),
  name: T.Optional(T.String({ maxLength: 200 })),
  x: T.Number(),
  y: T.Number(),
  width: T.Number({ minimum: 0 }),
  height: T.Number({ minimum: 0 }),
  /** Degrees, clockwise, about the layer's centre. */
  rotation: T.Optional(T.Number({ default: 0 })),
  opacity: T.Optional(T.Number({ minimum: 0, maximum: 1, default: 1 })),
  visible: T.Optional(T.Boolean({ default: true })),
  bind: T.Optional(Bindings),
};

export const Font = T.Object(
  {
    family: T.String({ minLength: 1, maxLength: 128 }),
    weight: T.Optional(T.Integer({ minimum: 100, maximum: 900, default: 400 })),
    style: T.Optional(T.Union([T.Literal("normal"), T.Literal("italic")], { default: "normal" })),
    /** Pixels at scale 1. */
    size: T.Number({ exclusiveMinimum: 0, maximum: 2000 }),
    /** Multiple of the font size. */
    line_height: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 10, default: 1.2 })),
    /** Pixels at scale 1, added between characters. */
    letter_spacing: T.Optional(T.Number({ minimum: -100, maximum: 1000, default: 0 })),
  },
  { additionalProperties: false },
);

/** Bindable properties: `text`, `color`. */
export const TextLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("text"),
    text: T.String({ maxLength: 10_000 }),
    font: Font,
    color: HexColor,
    align: T.Optional(
      T.Union([T.Literal("left"), T.Literal("center"), T.Literal("right"), T.Literal("justify")], {
        default: "left",
      }),
    ),
    vertical_align: T.Optional(
      T.Union([T.Literal("top"), T.Literal("middle"), T.Literal("bottom")], { default: "top" }),
    ),
    /** Lines beyond this are cut and the last line ends with an ellipsis (warning `text_truncated`). */
    max_lines: T.Optional(T.Integer({ minimum: 1, maximum: 1000 })),
    /** `shrink`: reduce the font size (not below `min_size`) until the text fits the box (warning `text_shrunk`). */
    fit: T.Optional(T.Union([T.Literal("none"), T.Literal("shrink")], { default: "none" })),
    min_size: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 2000 })),
    transform: T.Optional(T.Union([T.Literal("none"), T.Literal("uppercase")], { default: "none" })),
  },
  { additionalProperties: false },
);

/** Bindable properties: `src`. */
export const ImageLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("image"),
    /** URL or asset reference; "" draws nothing. */
    src: T.String({ maxLength: 2048 }),
    fit: T.Optional(
      T.Union([T.Literal("cover"), T.Literal("contain"), T.Literal("fill")], { default: "cover" }),
    ),
    /** Point of the source image kept in view when `cover` crops, 0..1 on each axis. */
    focal: T.Optional(
      T.Object(
        { x: T.Number({ minimum: 0, maximum: 1 }), y: T.Number({ minimum: 0, maximum: 1 }) },
        { additionalProperties: false },
      ),
    ),
    corner_radius: T.Optional(T.Number({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);

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
  { color: HexColor, width: T.Number({ exclusiveMinimum: 0, maximum: 1000 }) },
  { additionalProperties: false },
);

/** Bindable properties: `fill`, `stroke.color`. */
export const ShapeLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("shape"),
    shape: T.Union([T.Literal("rectangle"), T.Literal("ellipse")]),
    /** null: no fill. */
    fill: T.Union([HexColor, T.Null()]),
    stroke: T.Optional(T.Union([Stroke, T.Null()])),
    corner_radius: T.Optional(CornerRadius),
  },
  { additionalProperties: false },
);

export type Layer = TextLayerT | ImageLayerT | ShapeLayerT | GroupLayerT;

/** Children are positioned relative to the group's origin; the group's rotation and opacity apply to all. */
export const GroupLayer = T.Recursive(
  (Self) =>
    T.Object(
      {
        ...layerCommon,
        type: T.Literal("group"),
        layers: T.Array(T.Union([TextLayer, ImageLayer, ShapeLayer, Self]), { maxItems: 500 }),
      },
      { additionalProperties: false },
    ),
  { $id: "GroupLayer" },
);

export const AnyLayer = T.Union([TextLayer, ImageLayer, ShapeLayer, GroupLayer]);

/** Bindable properties: `background`. */
export const Frame = T.Object(
  {
    name: T.String({ pattern: "^[A-Za-z0-9_-]{1,64}$" }),
    width: T.Integer({ minimum: 1, maximum: 8000 }),
    height: T.Integer({ minimum: 1, maximum: 8000 }),
    background: T.Optional(HexColor),
    bind: T.Optional(Bindings),
    layers: T.Array(AnyLayer, { maxItems: 500 }),
  },
  { additionalProperties: false },
);

export const TemplateDocument = T.Object(
  {
    version: T.Literal(1),
    key: T.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$", description: "Addressing key (slug)" }),
    name: T.String({ minLength: 1, maxLength: 200 }),
    description: T.Optional(T.String({ maxLength: 2000 })),
    slots: T.Array(Slot, { maxItems: 200 }),
    frames: T.Array(Frame, { minItems: 1, maxItems: 20 }),
    /** Example slot values for previews and docs (slot name -> value). */
    sample: T.Optional(T.Record(T.String(), T.String())),
  },
  { additionalProperties: false, $id: "TemplateDocumentV1" },
);

export type HexColorT = Static<typeof HexColor>;
export type SlotT = Static<typeof Slot>;
export type TextSlotT = Static<typeof TextSlot>;
export type ImageSlotT = Static<typeof ImageSlot>;
export type ColorSlotT = Static<typeof ColorSlot>;
export type FontT = Static<typeof Font>;
export type TextLayerT = Static<typeof TextLayer>;
export type ImageLayerT = Static<typeof ImageLayer>;
export type ShapeLayerT = Static<typeof ShapeLayer>;
export type GroupLayerT = Static<typeof GroupLayer>;
export type FrameT = Static<typeof Frame>;
export type TemplateDocumentT = Static<typeof TemplateDocument>;
export type SlotType = SlotT["type"];
