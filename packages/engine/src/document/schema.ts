import { type Static, Type as T } from "@sinclair/typebox";
import { frameMotion } from "./animation.ts";
import { Bindings, ColorBindings, HexColor, MAX_LIST_ITEMS, Paint, SlotName } from "./common.ts";
import { InlineStyles } from "./inline-styles.ts";
import { LAYER_SCHEMAS, type Layer } from "./layers/registry.ts";
import { FramePrint } from "./print.ts";
import { LocaleTag } from "./value-format.ts";

/**
 * Template document v3: the JSON a designer's template is stored as (in the database, and in Git as
 * templates-as-code). This file, with document/common.ts and each layer type's file in
 * document/layers/ (listed in its registry.ts), is the single source of truth: TypeScript types, the
 * JSON Schema that validates documents, and the OpenAPI components are all derived from it.
 *
 * Binding model: every layer keeps the designer's own values in place; `bind` maps a property path of
 * the layer (e.g. "text", "color", "src", "fill", "stroke.color", "fill.stops[0].color") to a slot
 * name. A slot a request does not name leaves the designer's value (or the slot's `default`, when it
 * has one) in place.
 */

export { Bindings, HexColor, MAX_LIST_ITEMS } from "./common.ts";
export * from "./layers/registry.ts";

export const TextSlot = T.Object(
  {
    name: SlotName,
    type: T.Literal("text"),
    default: T.Optional(T.String({ maxLength: 10_000 })),
    description: T.Optional(T.String({ maxLength: 500 })),
    max_length: T.Optional(T.Integer({ minimum: 1, maximum: 10_000 })),
    /** Values are rich text: a small inline markup (`<b>`, `<i>`, `<u>`, `<s>`, `<color value="#RRGGBB">`, `<br>`). */
    rich: T.Optional(T.Boolean({ default: false })),
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
/** The most fields one list item may declare. */
export const MAX_LIST_FIELDS = 20;

/** `2026-11-28`, `2026-11-28T18:30`, `2026-11-28T18:30:00Z`, `2026-11-28T18:30:00.5+02:00`. */
export const ISO_DATE_PATTERN =
  "^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})?)?$";

export const NumberSlot = T.Object(
  {
    name: SlotName,
    type: T.Literal("number"),
    default: T.Optional(T.Number()),
    description: T.Optional(T.String({ maxLength: 500 })),
    /** Values below are refused. */
    min: T.Optional(T.Number()),
    /** Values above are refused. */
    max: T.Optional(T.Number()),
  },
  { additionalProperties: false },
);
export const DateSlot = T.Object(
  {
    name: SlotName,
    type: T.Literal("date"),
    /** ISO 8601: a calendar date, or a date and time with an optional offset. */
    default: T.Optional(T.String({ pattern: ISO_DATE_PATTERN, description: "ISO 8601 date or date-time" })),
    description: T.Optional(T.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

/** A field name of a list item: what `item.<field>` bindings and chart layers name. */
export const ListFieldName = T.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" });

/** One field of a list slot's items: a text, number, image or colour, required or not. */
export const ListField = T.Object(
  {
    name: ListFieldName,
    type: T.Union([T.Literal("text"), T.Literal("number"), T.Literal("image"), T.Literal("color")]),
    /** An item without it is refused (a missing optional field leaves its layers' design values). */
    required: T.Optional(T.Boolean({ default: false })),
    /** Text fields: at most this many characters. */
    max_length: T.Optional(T.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);

/** One item of a list slot's value: field name -> text (text, image, colour fields) or number. */
export const ListItem = T.Record(ListFieldName, T.Union([T.String({ maxLength: 10_000 }), T.Number()]));

export const ListSlot = T.Object(
  {
    name: SlotName,
    type: T.Literal("list"),
    fields: T.Array(ListField, { minItems: 1, maxItems: MAX_LIST_FIELDS }),
    /** Items a value may hold, at most 100. */
    max_items: T.Optional(T.Integer({ minimum: 1, maximum: MAX_LIST_ITEMS })),
    default: T.Optional(T.Array(ListItem, { maxItems: MAX_LIST_ITEMS })),
    description: T.Optional(T.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const Slot = T.Union([TextSlot, ImageSlot, ColorSlot, NumberSlot, DateSlot, ListSlot]);

/** A slot's value in a document's `sample`: text (text, image, colour, date slots), a number, or list items. */
export const SampleValue = T.Union([T.String(), T.Number(), T.Array(ListItem, { maxItems: MAX_LIST_ITEMS })]);

export const AnyLayer = T.Union([...LAYER_SCHEMAS]);

/** Bindable properties: `background`. */
export const Frame = T.Object(
  {
    name: T.String({ pattern: "^[A-Za-z0-9_-]{1,64}$" }),
    width: T.Integer({ minimum: 1, maximum: 8000 }),
    height: T.Integer({ minimum: 1, maximum: 8000 }),
    /** A paint: colour or gradient across the frame; white when absent. */
    background: T.Optional(Paint),
    bind: T.Optional(Bindings),
    /** Alpha or tint applied to the colour slot bound to `background`. */
    bind_colors: T.Optional(ColorBindings),
    layers: T.Array(AnyLayer, { maxItems: 500 }),
    /** How the frame prints as a PDF page (page size, bleed, crop marks, metadata): print.ts. */
    print: T.Optional(FramePrint),
    /** Motion: `duration`, `fps` and the `poster` moment (document/animation.ts). */
    ...frameMotion,
  },
  { additionalProperties: false },
);

/** Colours a template's brand palette holds at most. */
export const MAX_PALETTE_COLORS = 32;

export const TemplateDocument = T.Object(
  {
    version: T.Literal(4),
    key: T.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$", description: "Addressing key (slug)" }),
    name: T.String({ minLength: 1, maxLength: 200 }),
    description: T.Optional(T.String({ maxLength: 2000 })),
    slots: T.Array(Slot, { maxItems: 200 }),
    /** The locale numbers and dates are formatted in (a text layer's `format` may name another); default en. */
    locale: T.Optional(LocaleTag),
    frames: T.Array(Frame, { minItems: 1, maxItems: 20 }),
    /** Named inline styles rich text values may use as tags (`<em>…</em>`): document/inline-styles.ts. */
    inline_styles: T.Optional(InlineStyles),
    /** Example slot values for previews and docs (slot name -> value). */
    sample: T.Optional(T.Record(T.String(), SampleValue)),
    /**
     * The designer's brand colours, offered by the editor's colour fields; never drawn (rendering
     * ignores it, so adding or changing it changes no output).
     */
    palette: T.Optional(
      T.Array(HexColor, {
        maxItems: MAX_PALETTE_COLORS,
        description:
          "The designer's brand colours (#RRGGBB or #RRGGBBAA), offered by the editor's colour fields; never drawn",
      }),
    ),
  },
  { additionalProperties: false, $id: "TemplateDocumentV4" },
);

export type {
  BlendModeT,
  ConstraintsT,
  DropShadowT,
  GradientT,
  HexColorT,
  ImagePatternPaintT,
  LayoutT,
  MaskT,
  PaddingT,
  PaintT,
  PatternPaintT,
  SizingT,
  VisibleWhenT,
} from "./common.ts";
export type SlotT = Static<typeof Slot>;
export type TextSlotT = Static<typeof TextSlot>;
export type ImageSlotT = Static<typeof ImageSlot>;
export type ColorSlotT = Static<typeof ColorSlot>;
export type NumberSlotT = Static<typeof NumberSlot>;
export type DateSlotT = Static<typeof DateSlot>;
export type ListSlotT = Static<typeof ListSlot>;
export type ListFieldT = Static<typeof ListField>;
export type ListItemT = Static<typeof ListItem>;
/** The schema's own static type leaves layers untyped (the union is assembled at run time from the registry). */
export type FrameT = Omit<Static<typeof Frame>, "layers"> & { layers: Layer[] };
export type TemplateDocumentT = Omit<Static<typeof TemplateDocument>, "frames"> & { frames: FrameT[] };
export type SlotType = SlotT["type"];
