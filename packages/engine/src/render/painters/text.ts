import type { Paragraph } from "canvaskit-wasm";
import type { PaintT } from "../../document/common.ts";
import { inlineStyleNames } from "../../document/inline-styles.ts";
import type { TextLayerT } from "../../document/layers/text.ts";
import { markupError, parseRichText, plainTextOf, type RichRun } from "../../document/rich-text.ts";
import type { TextOnPathT } from "../../document/text-path.ts";
import type { Bindings, Resolved } from "../bindings.ts";
import { parseHexColor } from "../color.ts";
import type { PaintContext } from "../context.ts";
import { axisAligned } from "../device-space.ts";
import { EngineError } from "../errors.ts";
import { synthesisWarnings } from "../font-synthesis.ts";
import { applyInlineStyles, drawRunBackgrounds } from "../inline-styles.ts";
import { applyLetterCase, applyLetterCaseToRuns } from "../letter-case.ts";
import { resolvePaint } from "../paint.ts";
import { madeFromValues } from "../repeat.ts";
import { layoutText } from "../text-box.ts";
import { isRightToLeft, type TextSpec } from "../text-layout.ts";
import { drawTextOnPath } from "../text-path.ts";
import { drawHighlights, drawTextPasses, firstColorOf } from "../text-styles.ts";
import { type CostContext, definePainter, type KindCost, type Size, type SizeQuery } from "./painter.ts";

export const textPainter = definePainter<TextLayerT>({
  paint: paintText,
  readableText,
  measure: measureText,
  // Text bound to an empty value (or designed empty) draws nothing: a stack gives it no space.
  isEmpty(layer, path, bindings) {
    const text = bindings.formatted(layer.bind, "text", layer.text, `${path}.text`, layer.id, layer.format);
    const runs = richRuns(bindings, text, layer.transform);
    return (runs === undefined ? text.value : plainTextOf(runs)).trim() === "";
  },
  // Glyphs may overhang their box (italics, accents, a last line cut by the height): allow two font
  // sizes, plus the outline and the highlight's padding.
  overhang: (layer) =>
    layer.font.size * 2 +
    pathReach(layer.on_path) +
    (layer.stroke?.width ?? 0) +
    (layer.highlight === undefined ? 0 : highlightPadding(layer.highlight).overhang),
  cost: textCost,
});

/**
 * A gradient fill on an axis-aligned canvas draws the glyphs into a raster of their own and copies it
 * back as an image (render/gradient-glyphs.ts): both in the heap, as large as the glyphs can reach
 * (text-styles.ts inkBounds: half the size sideways, the size above and below, and lines no longer
 * than the box unless one glyph is wider, no taller than the box unless one line is taller).
 */
function textCost(layer: TextLayerT, _path: string, ctx: CostContext): KindCost {
  const gradient = typeof layer.color !== "string" && layer.bind?.color === undefined;
  if (!gradient || !ctx.axisAligned) return { drawing: { heap: 0, outside: 0 } };
  const size = Math.max(
    layer.font.size,
    layer.fit === "fill" ? (layer.max_size ?? defaultMaxSize(layer)) : 0,
  );
  // A box that hugs its text may grow up to its maximum, else to the frame (the clip bounds the raster).
  const boxWidth =
    layer.layout?.width === "hug" ? (layer.layout.max_width ?? ctx.clip.width / ctx.scale) : layer.width;
  const boxHeight =
    layer.layout?.height === "hug" ? (layer.layout.max_height ?? ctx.clip.height / ctx.scale) : layer.height;
  const width = Math.max(boxWidth, 2 * size + Math.abs(layer.font.letter_spacing ?? 0)) + size;
  const height = Math.max(boxHeight, size * (layer.font.line_height ?? 1.2)) + 2 * size;
  const pixels = (Math.ceil(width * ctx.scale) + 1) * (Math.ceil(height * ctx.scale) + 1);
  return { drawing: { heap: 8 * pixels, outside: 0 } };
}

/** The words a text layer shows in this render (bound, formatted, rich text flattened, letter case applied). */
function readableText(
  ctx: PaintContext,
  layer: TextLayerT,
  path: string,
): { text: string; size: number } | null {
  const text = ctx.bindings.formatted(layer.bind, "text", layer.text, `${path}.text`, layer.id, layer.format);
  const runs = richRuns(ctx.bindings, text, layer.transform);
  const content = runs === undefined ? applyLetterCase(text.value, layer.transform) : plainTextOf(runs);
  return content === "" ? null : { text: content, size: layer.font.size };
}

/** The text layer's paragraph spec in this render (after binding and letter case), or null: nothing to draw. */
function textSpecOf(
  ctx: PaintContext,
  layer: TextLayerT,
  path: string,
): { spec: TextSpec; text: Resolved<string>; color: Resolved<PaintT> } | null {
  const text = ctx.bindings.formatted(layer.bind, "text", layer.text, `${path}.text`, layer.id, layer.format);
  const color = resolvePaint(ctx.bindings, layer.bind, "color", layer.color, `${path}.color`, layer.id);
  const parsed = richRuns(ctx.bindings, text, layer.transform);
  const runs = parsed === undefined ? undefined : applyInlineStyles(parsed, ctx.bindings, layer.id);
  const content = runs === undefined ? applyLetterCase(text.value, layer.transform) : plainTextOf(runs);
  if (content === "") return null;
  const font = layer.font;
  const spec: TextSpec = {
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
    // The design's own words: the same in every render, so their paragraphs are kept between renders.
    lasting: text.slot === null && !madeFromValues(layer),
  };
  return { spec, text, color };
}

// Room enough for any line: text measured for `hug` is laid out this wide or tall before its box is known.
const UNBOUNDED = 1e6;

/**
 * The box a text's lines need at its design size (`layout: hug`): without a width, its longest line
 * unwrapped; without a height, its lines at the width, each a full line height, with paragraph
 * spacing. Past the box's maximum the painter shrinks or cuts the text as `fit` says.
 */
function measureText(ctx: PaintContext, layer: TextLayerT, path: string, box: SizeQuery): Size {
  const resolved = textSpecOf(ctx, layer, path);
  if (resolved === null) return { width: box.width ?? 0, height: box.height ?? 0 };
  const { spec } = resolved;
  let width = box.width;
  if (width === null) {
    const unwrapped = ctx.paragraphs.build(spec, spec.size, UNBOUNDED, layer.max_lines);
    width = Math.ceil(unwrapped.getMaxIntrinsicWidth());
    // Unwrapped, its lines are those it has at its own width: no second layout (without paragraph gaps).
    const lines = unwrapped.getNumberOfLines();
    const height = Math.max(unwrapped.getHeight(), lines * spec.size * spec.lineHeight);
    // Kept: the box's width is usually this one, and the paint lays the same paragraph out again there.
    ctx.paragraphs.release(unwrapped);
    if (box.height !== null) return { width, height: box.height };
    if ((layer.paragraph_spacing ?? 0) === 0 && width < UNBOUNDED) return { width, height };
  }
  if (box.height !== null) return { width, height: box.height };
  const layout = layoutText(
    ctx.paragraphs,
    spec,
    { width, height: UNBOUNDED },
    {
      maxLines: layer.max_lines,
      shrink: false,
      minSize: undefined,
      paragraphSpacing: layer.paragraph_spacing,
    },
  );
  const lines = layout.paragraph.getNumberOfLines();
  // Whole line heights: the painter keeps as many lines as whole line heights fit the box.
  const height = Math.max(
    layout.height,
    lines * spec.size * spec.lineHeight + (layout.lineOffsets.at(-1) ?? 0),
  );
  // Kept for the paint, which lays out the same paragraph in the box this measure gives.
  ctx.paragraphs.release(layout.paragraph);
  return { width, height };
}

/** Draws a text layer in its local box (the canvas is already in the layer's coordinate space). */
function paintText(ctx: PaintContext, layer: TextLayerT, path: string): void {
  const resolved = textSpecOf(ctx, layer, path);
  if (resolved === null) return;
  const { spec, text, color } = resolved;
  if (layer.on_path !== undefined) {
    paintOnPath(ctx, layer, path, layer.on_path, resolved);
    return;
  }
  const font = layer.font;
  const layout = layoutText(
    ctx.paragraphs,
    spec,
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
      ...highlightPadding(layer.highlight),
      radius: layer.highlight.corner_radius ?? 0,
      withinBox: layer.highlight.bounds === "box",
    };
    drawHighlights(ctx, layout, highlight, origin, box);
  }
  drawRunBackgrounds(ctx.ck, ctx.canvas, paragraph, spec.runs, layout.lineOffsets, origin);
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
      details: { from_px: font.size, to_px: layout.size },
    });
  }
  if (layout.truncated) {
    ctx.warnings.push({
      code: "text_truncated",
      slot,
      layer: layer.id,
      message: `Text of layer "${layer.id}" did not fit and was cut after ${paragraph.getNumberOfLines()} line(s).`,
      details: { lines: paragraph.getNumberOfLines() },
    });
  }
  warnAboutFonts(ctx, layer, spec, paragraph, slot);
  // Kept for the same text drawn again (in this render, or in later ones for design text).
  ctx.paragraphs.release(paragraph);
}

/**
 * Draws the text along `on_path` (render/text-path.ts), with the warnings of a box's text: shrunk to
 * fit the path, cut at its ends, fonts missing or synthesised.
 */
function paintOnPath(
  ctx: PaintContext,
  layer: TextLayerT,
  path: string,
  onPath: TextOnPathT,
  resolved: NonNullable<ReturnType<typeof textSpecOf>>,
): void {
  const { text, color } = resolved;
  // Glyphs are placed one by one: the gradient's recolouring of a laid-out box does not apply.
  const spec: TextSpec = { ...resolved.spec };
  delete spec.glyphs;
  const box = { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
  const stroke =
    layer.stroke === undefined
      ? null
      : {
          width: layer.stroke.width,
          color: resolvePaint(
            ctx.bindings,
            layer.bind,
            "stroke.color",
            layer.stroke.color,
            `${path}.stroke.color`,
            layer.id,
          ),
        };
  const drawn = drawTextOnPath(ctx, spec, color, stroke, {
    onPath,
    box,
    shrink: layer.fit === "shrink",
    minSize: layer.min_size,
  });
  if (drawn === null) return;
  const slot = text.slot;
  if (drawn.size < spec.size) {
    ctx.warnings.push({
      code: "text_shrunk",
      slot,
      layer: layer.id,
      message: `Text of layer "${layer.id}" was shrunk from ${spec.size}px to ${drawn.size}px to fit its path.`,
      details: { from_px: spec.size, to_px: drawn.size },
    });
  }
  if (drawn.cut > 0) {
    ctx.warnings.push({
      code: "text_truncated",
      slot,
      layer: layer.id,
      message: `Text of layer "${layer.id}" is longer than its path: ${drawn.cut} glyph(s) past its ends were not drawn.`,
      details: { glyphs: drawn.cut },
    });
  }
  warnAboutFonts(ctx, layer, spec, drawn.paragraph, slot);
  ctx.paragraphs.release(drawn.paragraph);
}

/** Warnings about the fonts a text was drawn in: a family missing, characters from fallback fonts, faked faces. */
function warnAboutFonts(
  ctx: PaintContext,
  layer: TextLayerT,
  spec: TextSpec,
  paragraph: Paragraph,
  slot: string | null,
): void {
  const font = layer.font;
  const content = spec.text;
  const known = ctx.fonts.hasFamily(font.family);
  const missing = ctx.fonts.missingFromFamily(font.family, content);
  if (missing.length > 0) {
    const unresolved = paragraph.unresolvedCodepoints();
    const tofu =
      unresolved.length > 0
        ? ` No font in the set has ${quote(unresolved.map((cp) => String.fromCodePoint(cp)))}.`
        : "";
    ctx.warnings.push({
      code: known ? "glyph_fallback" : "font_missing",
      slot,
      layer: layer.id,
      message: known
        ? `Font "${font.family}" of layer "${layer.id}" has no glyph for ${quote(missing)}; fallback fonts were used.${tofu}`
        : `Font "${font.family}" of layer "${layer.id}" is not in the font set (neither shipped nor uploaded); fallback fonts drew the text.${tofu}`,
      details: {
        family: font.family,
        characters: missing,
        fallback_families: ctx.fonts.fallbacksFor(font.family, missing),
      },
    });
  }
  if (known) {
    for (const warning of synthesisWarnings(ctx, font.family, spec, layer.id, slot))
      ctx.warnings.push(warning);
  }
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
  const parsed = parseRichText(text.value, inlineStyleNames({ inline_styles: bindings.inlineStyles }));
  // Validation refuses bad markup in values, defaults and designs; only a direct engine caller gets here.
  if (!parsed.ok) throw new EngineError("invalid_markup", text.path, markupError(parsed));
  return applyLetterCaseToRuns(parsed.runs, transform);
}

/** A highlight's padding on each axis (each defaults to `padding`) and how far it reaches past the glyphs. */
function highlightPadding(highlight: NonNullable<TextLayerT["highlight"]>) {
  const padding = highlight.padding ?? 4;
  const x = highlight.padding_x ?? padding;
  const y = highlight.padding_y ?? padding;
  return { paddingX: x, paddingY: y, overhang: Math.max(x, y) };
}

/**
 * How far text on a path may reach beyond the box: path data may go anywhere, and no point of it is
 * further from the box's corner than the sum of its numbers' sizes (arcs' radii included).
 */
function pathReach(onPath: TextOnPathT | undefined): number {
  if (onPath?.shape !== "path") return 0;
  let reach = 0;
  for (const number of onPath.d.match(/[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g) ?? []) {
    reach += Math.abs(Number(number));
  }
  return Math.min(reach, 100_000);
}

/** Fit `fill` grows text at most to the size at which one line is as tall as the box. */
function defaultMaxSize(layer: TextLayerT): number {
  return Math.min(2000, Math.max(layer.font.size, layer.height / (layer.font.line_height ?? 1.2)));
}
