import { isGradient, leadColor, type PaintT } from "../document/common.ts";
import type { Resolved } from "./bindings.ts";
import type { PaintContext } from "./context.ts";
import { applyPaint, type PaintBox } from "./paint.ts";
import { drawLaidOut, type TextLayout } from "./text-box.ts";
import type { GlyphPaint } from "./text-layout.ts";

/** The colour a gradient paint lays text out with (and colours its decorations with): its first stop. */
export function firstColorOf(paint: PaintT): string {
  return leadColor(paint, "#000000");
}

export interface HighlightStyle {
  color: Resolved<PaintT>;
  paddingX: number;
  paddingY: number;
  radius: number;
  /** Cut each band to the layer box. */
  withinBox: boolean;
}

/**
 * A rounded band behind each laid-out line (a highlighter or caption background), `padding` around
 * the line's glyphs; drawn before the text. Empty lines get none.
 */
export function drawHighlights(
  ctx: PaintContext,
  layout: TextLayout,
  style: HighlightStyle,
  origin: { x: number; y: number },
  box: PaintBox,
): void {
  const { ck, canvas } = ctx;
  const paint = new ck.Paint();
  paint.setAntiAlias(true);
  paint.setStyle(ck.PaintStyle.Fill);
  const release = applyPaint(ctx, paint, style.color.value, style.color.path, box);
  layout.paragraph.getLineMetrics().forEach((line, i) => {
    if (line.width <= 0) return;
    const { paddingX, paddingY } = style;
    let left = origin.x + line.left - paddingX;
    let top = origin.y + (layout.lineOffsets[i] ?? 0) + line.baseline - line.ascent - paddingY;
    let right = left + (line.width + paddingX * 2);
    let bottom = top + (line.ascent + line.descent + paddingY * 2);
    if (style.withinBox) {
      left = Math.max(left, box.x);
      top = Math.max(top, box.y);
      right = Math.min(right, box.x + box.width);
      bottom = Math.min(bottom, box.y + box.height);
      if (right <= left || bottom <= top) return;
    }
    const rect = ck.LTRBRect(left, top, right, bottom);
    canvas.drawRRect(ck.RRectXY(rect, style.radius, style.radius), paint);
  });
  release();
  paint.delete();
}

/**
 * The glyph passes of a text layer: an outline first (a stroke twice the visible width, the fill
 * covering its inner half, so it reads as an outside stroke as in design tools), then the fill. A solid
 * fill draws the laid-out paragraph as is; a gradient rebuilds the same layout with a shader paint
 * spanning the layer box.
 */
export function drawTextPasses(
  ctx: PaintContext,
  layout: TextLayout,
  fill: Resolved<PaintT>,
  stroke: { width: number; color: Resolved<PaintT> } | null,
  origin: { x: number; y: number },
  box: PaintBox,
): void {
  const { ck, canvas } = ctx;
  if (stroke !== null) {
    const outline = new ck.Paint();
    outline.setAntiAlias(true);
    outline.setStyle(ck.PaintStyle.Stroke);
    outline.setStrokeWidth(stroke.width * 2);
    outline.setStrokeJoin(ck.StrokeJoin.Round);
    const release = applyPaint(ctx, outline, stroke.color.value, stroke.color.path, box);
    drawRebuilt(ctx, layout, { plain: outline, colored: outline, emojiAndDecorations: true }, origin);
    release();
    outline.delete();
  }
  const gradient = fill.value;
  if (typeof gradient === "string") {
    drawLaidOut(ck, canvas, layout, layout.paragraph, origin);
    return;
  }
  // Axis-aligned, the gradient's glyphs are recoloured in JS (render/gradient-glyphs.ts); runs with
  // their own `<color>`, emoji and decorations (in the first stop's colour) are drawn after, as laid out.
  const glyphs = ctx.gradientGlyphs;
  // A pattern is drawn through its shader.
  const recoloured =
    isGradient(gradient) &&
    glyphs.paint(canvas, inkBounds(layout, origin), gradient, fill.path, box, (raster) => {
      if (layout.glyphs === glyphs.coverage) drawLaidOut(ck, raster, layout, layout.paragraph, origin);
      else drawRebuilt({ ck, canvas: raster }, layout, glyphs.coverage, origin);
    });
  if (recoloured) {
    if (layout.drawsBesidePlainGlyphs())
      drawRebuilt(ctx, layout, { plain: "none", colored: null, emojiAndDecorations: true }, origin);
    return;
  }
  const shaded = new ck.Paint();
  shaded.setAntiAlias(true);
  shaded.setStyle(ck.PaintStyle.Fill);
  const release = applyPaint(ctx, shaded, gradient, fill.path, box);
  drawRebuilt(ctx, layout, { plain: shaded, colored: null, emojiAndDecorations: true }, origin);
  release();
  shaded.delete();
}

/**
 * Where a laid-out paragraph's glyphs can reach: its lines' extent, widened by half the font size
 * sideways (italic overhang) and the whole size above and below (accents above the line box, the
 * descenders of a tight line height).
 */
function inkBounds(layout: TextLayout, origin: { x: number; y: number }) {
  const lines = layout.paragraph.getLineMetrics();
  const left = Math.min(0, ...lines.map((line) => line.left));
  const right = Math.max(0, ...lines.map((line) => line.left + line.width));
  return {
    x0: origin.x + left - layout.size / 2,
    y0: origin.y - layout.size,
    x1: origin.x + right + layout.size / 2,
    y1: origin.y + layout.height + layout.size,
  };
}

function drawRebuilt(
  ctx: Pick<PaintContext, "ck" | "canvas">,
  layout: TextLayout,
  glyphs: GlyphPaint,
  origin: { x: number; y: number },
) {
  const paragraph = layout.rebuild(glyphs);
  drawLaidOut(ctx.ck, ctx.canvas, layout, paragraph, origin);
  paragraph.delete();
}
