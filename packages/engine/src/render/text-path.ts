import type {
  CanvasKit,
  ContourMeasure,
  Font,
  FontMetrics,
  GlyphRun,
  Paragraph,
  Path,
  TextBlob,
} from "canvaskit-wasm";
import type { PaintT } from "../document/common.ts";
import type { TextOnPathT } from "../document/text-path.ts";
import type { Resolved } from "./bindings.ts";
import { parseHexColor } from "./color.ts";
import type { PaintContext } from "./context.ts";
import { applyPaint, type PaintBox } from "./paint.ts";
import { DEFAULT_MIN_SIZE_FLOOR, SHRINK_STEP, type TextSpec } from "./text-layout.ts";
import {
  type DecoratedPiece,
  decorationLines,
  drawDecorations,
  type RunStyle,
} from "./text-path-decorations.ts";

// Room for any line: the text is shaped as one line, never wrapped.
const UNBOUNDED = 1e6;

export interface PathTextOptions {
  onPath: TextOnPathT;
  box: PaintBox;
  /** Fit `shrink`: the size may go down (not below minSize) until the text fits the path's length. */
  shrink: boolean;
  minSize: number | undefined;
}

export interface PathText {
  /** The shaped line (the caller's to delete): fonts used, unresolved characters. */
  paragraph: Paragraph;
  /** The size drawn (below the spec's when shrunk). */
  size: number;
  /** Glyphs beyond either end of the path, not drawn. */
  cut: number;
}

/**
 * Draws a text layer's words along its path (document/text-path.ts): the text is shaped as one line
 * by the paragraph shaper (fonts, fallback, kerning, letter spacing as in a box), then each glyph is
 * set upright on the path at the point its centre reaches, turned to the path's direction there (one
 * RSXform per glyph, a text blob per shaped run). The outline pass goes first, as in a box. Glyphs
 * whose centre falls beyond either end of the path are not drawn. Rich runs' backgrounds (behind the
 * glyphs), the layer's or runs' underlines and strike-throughs (over them) follow the path under the
 * glyphs they belong to,
 * at the run font's own positions and thicknesses (text-path-decorations below). Returns null when
 * the path has no length (nothing drawn).
 */
export function drawTextOnPath(
  ctx: PaintContext,
  spec: TextSpec,
  fill: Resolved<PaintT>,
  stroke: { width: number; color: Resolved<PaintT> } | null,
  options: PathTextOptions,
): PathText | null {
  const { ck, canvas } = ctx;
  const line = lineOf(ck, options.onPath, options.box);
  if (line === null) return null;
  const iterator = new ck.ContourMeasureIter(line, false, ctx.scale);
  const contour = iterator.next();
  iterator.delete();
  line.delete();
  if (contour === null) return null;
  const length = contour.length();
  if (length <= 0) {
    contour.delete();
    return null;
  }
  const oneLine = {
    ...spec,
    text: spec.text.replace(/\r\n|[\r\n\u2028\u2029]/g, " "),
    align: "left" as const,
  };
  if (oneLine.runs !== undefined) {
    oneLine.runs = oneLine.runs.map((run) => ({
      ...run,
      text: run.text.replace(/\r\n|[\r\n\u2028\u2029]/g, " "),
    }));
  }
  let size = spec.size;
  let paragraph = ctx.paragraphs.build(oneLine, size, UNBOUNDED, undefined);
  if (options.shrink) {
    const floor = options.minSize ?? Math.max(DEFAULT_MIN_SIZE_FLOOR, spec.size / 2);
    let width = lineWidth(paragraph);
    while (width > length && size > floor) {
      // Straight to about the size that fits, then down the grid: widths are nearly proportional.
      const guess = Math.floor((size * length) / width / SHRINK_STEP) * SHRINK_STEP;
      size = Math.max(floor, Math.min(size - SHRINK_STEP, guess));
      paragraph.delete();
      paragraph = ctx.paragraphs.build(oneLine, size, UNBOUNDED, undefined);
      width = lineWidth(paragraph);
    }
  }
  const placed = placeGlyphs(ck, paragraph, contour, length, options.onPath, runStyles(ck, oneLine));
  const decorations = decorationLines(ck, contour, length, placed.pieces, 1 / ctx.scale);
  contour.delete();
  drawDecorations(ctx, decorations, "background", fill, options.box);
  if (stroke !== null) {
    const outline = new ck.Paint();
    outline.setAntiAlias(true);
    outline.setStyle(ck.PaintStyle.Stroke);
    // Twice the visible width, the fill covering its inner half: an outside stroke, as in a box.
    outline.setStrokeWidth(stroke.width * 2);
    outline.setStrokeJoin(ck.StrokeJoin.Round);
    const release = applyPaint(ctx, outline, stroke.color.value, stroke.color.path, options.box);
    for (const { blob } of placed.blobs) canvas.drawTextBlob(blob, 0, 0, outline);
    release();
    outline.delete();
  }
  const paint = new ck.Paint();
  paint.setAntiAlias(true);
  paint.setStyle(ck.PaintStyle.Fill);
  const release = applyPaint(ctx, paint, fill.value, fill.path, options.box);
  for (const { blob, color } of placed.blobs) {
    if (color === null) canvas.drawTextBlob(blob, 0, 0, paint);
  }
  release();
  // Rich runs with their own `<color>` keep it, as in a box.
  for (const { blob, color } of placed.blobs) {
    if (color !== null) {
      paint.setColor(parseHexColor(color, fill.path));
      canvas.drawTextBlob(blob, 0, 0, paint);
    }
    blob.delete();
  }
  paint.delete();
  drawDecorations(ctx, decorations, "line", fill, options.box);
  for (const decoration of decorations) decoration.path.delete();
  return { paragraph, size, cut: placed.cut };
}

/** The shaped line's advance: from its first glyph's left edge to the end of its last. */
function lineWidth(paragraph: Paragraph): number {
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (const line of paragraph.getShapedLines()) {
    for (const run of line.runs) {
      const count = run.glyphs.length;
      left = Math.min(left, run.positions[0] ?? 0);
      right = Math.max(right, run.positions[2 * count] ?? 0);
    }
  }
  return right > left ? right - left : 0;
}

/**
 * Each rich run's style, in order, with the layer's own underline or strike-through added to every
 * run; plain text is one run (none when the layer draws no decoration).
 */
function runStyles(ck: CanvasKit, spec: TextSpec): RunStyle[] {
  const underline = ((spec.decoration ?? 0) & ck.UnderlineDecoration) !== 0;
  const strike = ((spec.decoration ?? 0) & ck.LineThroughDecoration) !== 0;
  if (spec.runs === undefined) {
    return underline || strike ? [{ start: 0, color: null, underline, strike, background: null }] : [];
  }
  const encoder = new TextEncoder();
  let start = 0;
  return spec.runs.map((run) => {
    const at = {
      start,
      color: run.color,
      underline: underline || run.underline,
      strike: strike || run.strike,
      background: run.background ?? null,
    };
    start += encoder.encode(run.text).length;
    return at;
  });
}

function styleAt(styles: readonly RunStyle[], offset: number): RunStyle | null {
  let style: RunStyle | null = null;
  for (const run of styles) {
    if (run.start > offset) break;
    style = run;
  }
  return style;
}

/**
 * Text blobs of the glyphs turned onto the path, one per shaped run and rich colour (null: the
 * layer's paint); the stretches of the path under decorated glyphs; and how many glyphs fell off it.
 */
function placeGlyphs(
  ck: CanvasKit,
  paragraph: Paragraph,
  contour: ContourMeasure,
  length: number,
  onPath: TextOnPathT,
  styles: readonly RunStyle[],
): { blobs: { blob: TextBlob; color: string | null }[]; pieces: DecoratedPiece[]; cut: number } {
  const lines = paragraph.getShapedLines();
  let left = Number.POSITIVE_INFINITY;
  for (const line of lines) for (const run of line.runs) left = Math.min(left, run.positions[0] ?? 0);
  const width = lineWidth(paragraph);
  const align = onPath.align ?? "center";
  const start =
    (align === "start" ? 0 : align === "end" ? length - width : (length - width) / 2) +
    (onPath.start_offset ?? 0);
  const blobs: { blob: TextBlob; color: string | null }[] = [];
  const pieces: DecoratedPiece[] = [];
  let cut = 0;
  const posTan = new Float32Array(4);
  for (const line of lines) {
    for (const run of line.runs) {
      const count = run.glyphs.length;
      let glyphs: number[] = [];
      let xforms: number[] = [];
      let color: string | null = styleAt(styles, run.offsets[0] ?? 0)?.color ?? null;
      let metrics: FontMetrics | null = null;
      const flush = () => {
        if (glyphs.length === 0) return;
        const font = fontOf(ck, run);
        const blob = ck.TextBlob.MakeFromRSXformGlyphs(glyphs, xforms, font);
        font.delete();
        if (blob !== null) blobs.push({ blob, color });
        glyphs = [];
        xforms = [];
      };
      for (let i = 0; i < count; i++) {
        const style = styles.length === 0 ? null : styleAt(styles, run.offsets[i] ?? 0);
        const glyphColor = style?.color ?? null;
        if (glyphColor !== color) {
          flush();
          color = glyphColor;
        }
        const x = (run.positions[2 * i] ?? 0) - left;
        const advance = (run.positions[2 * i + 2] ?? 0) - (run.positions[2 * i] ?? 0);
        const dy = (run.positions[2 * i + 1] ?? 0) - line.baseline;
        const middle = start + x + advance / 2;
        if (middle < 0 || middle > length) {
          cut++;
          continue;
        }
        contour.getPosTan(middle, posTan);
        const [px = 0, py = 0, tx = 1, ty = 0] = posTan;
        glyphs.push(run.glyphs[i] ?? 0);
        // The glyph's origin half its advance back along the tangent, its baseline shift along the normal.
        xforms.push(tx, ty, px - (tx * advance) / 2 - ty * dy, py - (ty * advance) / 2 + tx * dy);
        if (style !== null && (style.underline || style.strike || style.background !== null)) {
          if (metrics === null) {
            const font = fontOf(ck, run);
            metrics = font.getMetrics();
            font.delete();
          }
          pieces.push({
            from: middle - advance / 2,
            to: middle + advance / 2,
            style,
            metrics,
            size: run.size,
          });
        }
      }
      flush();
    }
  }
  return { blobs, pieces, cut };
}

/** The run's font as the shaper used it: its face and size, with faked bold or italic. */
function fontOf(ck: CanvasKit, run: GlyphRun): Font {
  const font = new ck.Font(run.typeface, run.size);
  font.setEdging(ck.FontEdging.AntiAlias);
  font.setSubpixel(true);
  font.setHinting(ck.FontHinting.None);
  if (run.fakeBold) font.setEmbolden(true);
  // Skia's synthetic oblique: a quarter of the height leaning right.
  if (run.fakeItalic) font.setSkewX(-0.25);
  return font;
}

/**
 * The line the text follows, in the layer's drawing coordinates: the circle (ellipse) fitted to the
 * box or an arc of it, in the direction that stands the glyphs on the side asked; or the path data
 * moved to the box's corner. Null when Skia cannot parse the data.
 */
function lineOf(ck: CanvasKit, onPath: TextOnPathT, box: PaintBox): Path | null {
  if (onPath.shape === "path") {
    const parsed = ck.Path.MakeFromSVGString(onPath.d);
    if (parsed === null) return null;
    const builder = new ck.PathBuilder(parsed);
    parsed.delete();
    builder.transform([1, 0, box.x, 0, 1, box.y, 0, 0, 1]);
    return builder.detachAndDelete();
  }
  const oval = ck.XYWHRect(box.x, box.y, box.width, box.height);
  // Document angles count clockwise from 12 o'clock; Skia's from 3 o'clock.
  let from: number;
  let sweep: number;
  const inside = onPath.side === "inside";
  if (onPath.shape === "circle") {
    from = inside ? 0 : 180;
    sweep = inside ? -360 : 360;
  } else {
    const span = onPath.to - onPath.from;
    const clockwise = span > 0 ? span : span + 360;
    from = inside ? onPath.to : onPath.from;
    sweep = inside ? -clockwise : clockwise;
  }
  const builder = new ck.PathBuilder();
  // In steps of at most 180 degrees: a whole turn in one arc is an oval starting elsewhere.
  const steps = Math.ceil(Math.abs(sweep) / 180);
  for (let i = 0; i < steps; i++) {
    builder.arcToOval(oval, from - 90 + (sweep / steps) * i, sweep / steps, i === 0);
  }
  return builder.detachAndDelete();
}
