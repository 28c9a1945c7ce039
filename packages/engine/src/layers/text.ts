import { type Static, Type as T } from "@sinclair/typebox";
import { layerCommon, Paint, type PaintT } from "../document/common.ts";
import { markupError, parseRichText, plainTextOf, type RichRun } from "../document/rich-text.ts";
import type { Bindings, Resolved } from "../render/bindings.ts";
import { parseHexColor } from "../render/color.ts";
import type { PaintContext } from "../render/context.ts";
import { axisAligned } from "../render/device-space.ts";
import { EngineError } from "../render/errors.ts";
import { applyLetterCase, applyLetterCaseToRuns } from "../render/letter-case.ts";
import { resolvePaint } from "../render/paint.ts";
import { layoutText } from "../render/text-box.ts";
import { isRightToLeft } from "../render/text-layout.ts";
import { drawHighlights, drawTextPasses, firstColorOf } from "../render/text-styles.ts";
import { defineLayerKind } from "./kind.ts";

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
  },
  { additionalProperties: false },
);

export type FontT = Static<typeof Font>;
export type TextLayerT = Static<typeof TextLayer>;

export const textKind = defineLayerKind<TextLayerT>({
  type: "text",
  schema: TextLayer,
  bindable: { text: "text", color: "color", "stroke.color": "color", "highlight.color": "color" },
  paints: ["color", "stroke.color", "highlight.color"],
  paint: paintText,
  // Glyphs may overhang their box (italics, accents, a last line cut by the height): allow two font
  // sizes, plus the outline and the highlight's padding.
  overhang: (layer) =>
    layer.font.size * 2 +
    (layer.stroke?.width ?? 0) +
    (layer.highlight?.padding ?? 4) * (layer.highlight ? 1 : 0),
  fontFamilies: (layer) => [layer.font.family],
  validate(layer, path, doc) {
    const errors = [];
    const textSlot = layer.bind?.text === undefined ? undefined : doc.slots.get(layer.bind.text);
    if (textSlot?.type === "text" && textSlot.rich === true) {
      // The design text shows when the rich slot has no value and no default: it is markup too.
      const parsed = parseRichText(layer.text);
      if (!parsed.ok) errors.push({ path: `${path}.text`, message: markupError(parsed) });
    }
    if (layer.min_size !== undefined && layer.min_size > layer.font.size) {
      errors.push({ path: `${path}.min_size`, message: `must be <= font.size (${layer.font.size})` });
    }
    if (layer.max_size !== undefined && layer.max_size < layer.font.size) {
      errors.push({ path: `${path}.max_size`, message: `must be >= font.size (${layer.font.size})` });
    }
    for (const part of ["stroke", "highlight"] as const) {
      if (layer.bind?.[`${part}.color`] !== undefined && layer[part] === undefined) {
        errors.push({
          path: `${path}.bind["${part}.color"]`,
          message: `is bound, but the layer has no ${part} to colour (add "${part}")`,
        });
      }
    }
    return errors;
  },
});

/** Draws a text layer in its local box (the canvas is already in the layer's coordinate space). */
function paintText(ctx: PaintContext, layer: TextLayerT, path: string): void {
  const text = ctx.bindings.resolve(layer.bind, "text", layer.text, `${path}.text`, layer.id);
  const color = resolvePaint(ctx.bindings, layer.bind, "color", layer.color, `${path}.color`, layer.id);
  const runs = richRuns(ctx.bindings, text, layer.transform);
  const content = runs === undefined ? applyLetterCase(text.value, layer.transform) : plainTextOf(runs);
  if (content === "") return;
  const font = layer.font;
  const layout = layoutText(
    ctx.paragraphs,
    {
      text: content,
      ...(runs === undefined ? {} : { runs }),
      families: ctx.fonts.familiesFor(font.family),
      size: font.size,
      lineHeight: font.line_height ?? 1.2,
      letterSpacing: font.letter_spacing ?? 0,
      weight: font.weight ?? 400,
      italic: font.style === "italic",
      color: parseHexColor(firstColorOf(color.value), color.path),
      // A gradient fill lays the glyphs out as they are recoloured, when it can (axis-aligned): one
      // paragraph build fewer.
      ...(typeof color.value !== "string" && axisAligned(ctx.canvas) !== null
        ? { glyphs: ctx.gradientGlyphs.coverage }
        : {}),
      align: layer.align ?? "left",
      rtl: isRightToLeft(content),
      decoration:
        (layer.underline === true ? ctx.ck.UnderlineDecoration : 0) |
        (layer.strikethrough === true ? ctx.ck.LineThroughDecoration : 0),
    },
    { width: layer.width, height: layer.height },
    {
      maxLines: layer.max_lines,
      shrink: layer.fit === "shrink" || layer.fit === "fill",
      minSize: layer.min_size,
      maxSize: layer.fit === "fill" ? (layer.max_size ?? defaultMaxSize(layer)) : undefined,
      paragraphSpacing: layer.paragraph_spacing,
    },
  );
  const { paragraph } = layout;
  const free = layer.height - layout.height;
  const offset = layer.vertical_align === "bottom" ? free : layer.vertical_align === "middle" ? free / 2 : 0;
  const origin = { x: layer.x, y: layer.y + offset };
  const box = { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
  const resolveOn = (property: string, value: PaintT) =>
    resolvePaint(ctx.bindings, layer.bind, property, value, `${path}.${property}`, layer.id);
  if (layer.highlight !== undefined) {
    const highlight = {
      color: resolveOn("highlight.color", layer.highlight.color),
      padding: layer.highlight.padding ?? 4,
      radius: layer.highlight.corner_radius ?? 0,
    };
    drawHighlights(ctx, layout, highlight, origin, box);
  }
  const stroke =
    layer.stroke === undefined
      ? null
      : { width: layer.stroke.width, color: resolveOn("stroke.color", layer.stroke.color) };
  drawTextPasses(ctx, layout, color, stroke, origin, box);

  const slot = text.slot;
  if (layout.shrunk) {
    ctx.warnings.push({
      code: "text_shrunk",
      slot,
      layer: layer.id,
      message: `Text of layer "${layer.id}" was shrunk from ${font.size}px to ${layout.size}px to fit its box.`,
    });
  }
  if (layout.truncated) {
    ctx.warnings.push({
      code: "text_truncated",
      slot,
      layer: layer.id,
      message: `Text of layer "${layer.id}" did not fit and was cut after ${paragraph.getNumberOfLines()} line(s).`,
    });
  }
  const missing = ctx.fonts.missingFromFamily(font.family, content);
  if (missing.length > 0) {
    const unresolved = paragraph.unresolvedCodepoints();
    const tofu =
      unresolved.length > 0
        ? ` No font in the set has ${quote(unresolved.map((cp) => String.fromCodePoint(cp)))}.`
        : "";
    const lacking = ctx.fonts.hasFamily(font.family)
      ? `has no glyph for ${quote(missing)}`
      : "is not in the font set";
    ctx.warnings.push({
      code: "glyph_fallback",
      slot,
      layer: layer.id,
      message: `Font "${font.family}" of layer "${layer.id}" ${lacking}; fallback fonts were used.${tofu}`,
    });
  }
  paragraph.delete();
}

function quote(characters: string[]): string {
  const shown = characters.slice(0, 10).join(" ");
  return characters.length > 10 ? `${shown} (and ${characters.length - 10} more)` : shown;
}

/** The styled runs of text bound to a rich slot (after letter case), or undefined for plain text. */
function richRuns(
  bindings: Bindings,
  text: Resolved<string>,
  transform: TextLayerT["transform"],
): RichRun[] | undefined {
  if (!bindings.isRich(text.slot)) return undefined;
  const parsed = parseRichText(text.value);
  // Validation refuses bad markup in values, defaults and designs; only a direct engine caller gets here.
  if (!parsed.ok) throw new EngineError("invalid_markup", text.path, markupError(parsed));
  return applyLetterCaseToRuns(parsed.runs, transform);
}

/** Fit `fill` grows text at most to the size at which one line is as tall as the box. */
function defaultMaxSize(layer: TextLayerT): number {
  return Math.min(2000, Math.max(layer.font.size, layer.height / (layer.font.line_height ?? 1.2)));
}
