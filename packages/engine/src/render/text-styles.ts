import type { PaintT } from "../document/common.ts";
import type { Resolved } from "./bindings.ts";
import type { PaintContext } from "./context.ts";
import { applyPaint, type PaintBox } from "./paint.ts";
import { drawLaidOut, type TextLayout } from "./text-box.ts";
import type { GlyphPaint } from "./text-layout.ts";

/** The colour a gradient paint lays text out with (and colours its decorations with): its first stop. */
export function firstColorOf(paint: PaintT): string {
  return typeof paint === "string" ? paint : (paint.stops[0]?.color ?? "#000000");
}

export interface HighlightStyle {
  color: Resolved<PaintT>;
  padding: number;
  radius: number;
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
  const release = applyPaint(ck, paint, style.color.value, style.color.path, box);
  layout.paragraph.getLineMetrics().forEach((line, i) => {
    if (line.width <= 0) return;
    const pad = style.padding;
    const rect = ck.XYWHRect(
      origin.x + line.left - pad,
      origin.y + (layout.lineOffsets[i] ?? 0) + line.baseline - line.ascent - pad,
      line.width + pad * 2,
      line.ascent + line.descent + pad * 2,
    );
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
    const release = applyPaint(ck, outline, stroke.color.value, stroke.color.path, box);
    drawRebuilt(ctx, layout, { paint: outline, overColors: true }, origin);
    release();
    outline.delete();
  }
  if (typeof fill.value === "string") {
    drawLaidOut(ck, canvas, layout, layout.paragraph, origin);
    return;
  }
  const gradient = new ck.Paint();
  gradient.setAntiAlias(true);
  gradient.setStyle(ck.PaintStyle.Fill);
  const release = applyPaint(ck, gradient, fill.value, fill.path, box);
  drawRebuilt(ctx, layout, { paint: gradient, overColors: false }, origin);
  release();
  gradient.delete();
}

function drawRebuilt(
  ctx: PaintContext,
  layout: TextLayout,
  glyphs: GlyphPaint,
  origin: { x: number; y: number },
) {
  const paragraph = layout.rebuild(glyphs);
  drawLaidOut(ctx.ck, ctx.canvas, layout, paragraph, origin);
  paragraph.delete();
}
