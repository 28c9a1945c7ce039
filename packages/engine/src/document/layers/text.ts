import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon, Paint } from "../common.ts";
import { markupError, parseRichText } from "../rich-text.ts";
import { TextOnPath, textOnPathErrors } from "../text-path.ts";
import { ValueFormat, valueFormatErrors } from "../value-format.ts";
import { defineLayer } from "./kind.ts";

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

/** An outline around the glyphs (drawn beneath the fill, so it reads as an outside stroke). */
export const TextStroke = T.Object(
  { width: T.Number({ exclusiveMinimum: 0, maximum: 200 }), color: Paint },
  { additionalProperties: false },
);

/** A band behind each line of text, as a highlighter pen or a caption background. */
export const TextHighlight = T.Object(
  {
    color: Paint,
    /** Template px around each line's glyphs. */
    padding: T.Optional(T.Number({ minimum: 0, maximum: 500, default: 4 })),
    /** Template px left and right of each line's glyphs (default: `padding`). */
    padding_x: T.Optional(T.Number({ minimum: 0, maximum: 500 })),
    /** Template px above and below each line's glyphs (default: `padding`). */
    padding_y: T.Optional(T.Number({ minimum: 0, maximum: 500 })),
    /** `box`: each band is cut to the layer box (it never spills past the layer); `spill` (default): padded freely. */
    bounds: T.Optional(T.Union([T.Literal("spill"), T.Literal("box")], { default: "spill" })),
    corner_radius: T.Optional(T.Number({ minimum: 0, maximum: 500, default: 0 })),
  },
  { additionalProperties: false },
);

/** Bindable properties: `text`, `color`, `stroke.color`, `highlight.color`. */
export const TextLayer = T.Object(
  {
    ...layerCommon,
    type: T.Literal("text"),
    text: T.String({ maxLength: 10_000 }),
    font: Font,
    /** A paint: colour or gradient across the layer box. */
    color: Paint,
    stroke: T.Optional(TextStroke),
    highlight: T.Optional(TextHighlight),
    underline: T.Optional(T.Boolean({ default: false })),
    strikethrough: T.Optional(T.Boolean({ default: false })),
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
    /**
     * `shrink`: reduce the font size (not below `min_size`) until the text fits the box (warning
     * `text_shrunk`). `fill`: the same, and grow it (up to `max_size`) while the text still fits.
     */
    fit: T.Optional(
      T.Union([T.Literal("none"), T.Literal("shrink"), T.Literal("fill")], { default: "none" }),
    ),
    min_size: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 2000 })),
    /** With fit `fill`: the largest size text grows to (default: one line as tall as the box). */
    max_size: T.Optional(T.Number({ exclusiveMinimum: 0, maximum: 2000 })),
    /** Pixels at scale 1 added after each line break (between paragraphs). */
    paragraph_spacing: T.Optional(T.Number({ minimum: 0, maximum: 1000, default: 0 })),
    /** Letter case shown (slot values are sent as written): `title` capitalises each word's first letter. */
    transform: T.Optional(
      T.Union([T.Literal("none"), T.Literal("uppercase"), T.Literal("lowercase"), T.Literal("title")], {
        default: "none",
      }),
    ),
    /** How a bound number or date is shown (`1,234.50`, `1.2K`, `28 Nov 2026`); other text is shown as is. */
    format: T.Optional(ValueFormat),
    /** Sets the text along a circle, an arc or a path instead of in lines (document/text-path.ts). */
    on_path: T.Optional(TextOnPath),
  },
  { additionalProperties: false },
);

export type FontT = Static<typeof Font>;
export type TextLayerT = Static<typeof TextLayer>;

export const textDefinition = defineLayer<TextLayerT>({
  type: "text",
  schema: TextLayer,
  bindable: { text: "text", color: "color", "stroke.color": "color", "highlight.color": "color" },
  paints: ["color", "stroke.color", "highlight.color"],
  fontFamilies: (layer) => [layer.font.family],
  hugs: true,
  validate(layer, path, doc) {
    const errors = [];
    const textSlot = layer.bind?.text === undefined ? undefined : doc.slots.get(layer.bind.text);
    if (textSlot?.type === "text" && textSlot.rich === true) {
      // The design text shows when the rich slot has no value and no default: it is markup too.
      const parsed = parseRichText(layer.text, doc.inlineStyles);
      if (!parsed.ok) errors.push({ path: `${path}.text`, message: markupError(parsed) });
    }
    if (layer.min_size !== undefined && layer.min_size > layer.font.size) {
      errors.push({ path: `${path}.min_size`, message: `must be <= font.size (${layer.font.size})` });
    }
    if (layer.max_size !== undefined && layer.max_size < layer.font.size) {
      errors.push({ path: `${path}.max_size`, message: `must be >= font.size (${layer.font.size})` });
    }
    if (layer.format !== undefined) {
      for (const error of valueFormatErrors(layer.format, `${path}.format`)) errors.push(error);
    }
    for (const part of ["stroke", "highlight"] as const) {
      if (layer.bind?.[`${part}.color`] !== undefined && layer[part] === undefined) {
        errors.push({
          path: `${path}.bind["${part}.color"]`,
          message: `is bound, but the layer has no ${part} to colour (add "${part}")`,
        });
      }
    }
    for (const error of textOnPathErrors(layer, path)) errors.push(error);
    return errors;
  },
});
