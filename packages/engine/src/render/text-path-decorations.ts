import type { CanvasKit, ContourMeasure, FontMetrics, Path } from "canvaskit-wasm";
import type { PaintT } from "../document/common.ts";
import type { Resolved } from "./bindings.ts";
import { parseHexColor } from "./color.ts";
import type { PaintContext } from "./context.ts";
import { applyPaint, type PaintBox } from "./paint.ts";

export /** How a rich run is drawn beyond its glyphs' shapes: its own colour and its decorations. */
interface RunStyle {
  /** Where the run starts in the text (UTF-8 bytes, as the shaper counts). */
  start: number;
  color: string | null;
  underline: boolean;
  strike: boolean;
  background: string | null;
}

export /** A placed glyph's stretch of the path, for a run with a decoration: where its decorations go. */
interface DecoratedPiece {
  from: number;
  to: number;
  style: RunStyle;
  metrics: FontMetrics;
  size: number;
}

/** One decoration of a stretch of text on a path: the line it follows (template px) and how it is drawn. */
export interface DecorationLine {
  kind: "background" | "line";
  path: Path;
  width: number;
  /** A rich run's own colour, or null for the layer's paint. */
  color: string | null;
}

// Neighbouring glyphs' stretches closer than this (template px) make one line: no seams between letters.
const JOIN = 0.01;

/**
 * The decorations of text set on a path: for each stretch of neighbouring glyphs of one run and
 * font, its background band (the font's ascent to descent), underline (below the baseline at the
 * font's underline position) and strike-through (at its strikeout position), each a line along the
 * path at that distance from it, drawn as a stroke of that thickness. `step`: the sampling interval
 * (template px, one device pixel) of the lines, which bend with the path.
 */
export function decorationLines(
  ck: CanvasKit,
  contour: ContourMeasure,
  length: number,
  pieces: readonly DecoratedPiece[],
  step: number,
): DecorationLine[] {
  const spans: DecoratedPiece[] = [];
  for (const piece of pieces) {
    const last = spans.at(-1);
    if (
      last !== undefined &&
      last.style === piece.style &&
      last.metrics === piece.metrics &&
      Math.abs(piece.from - last.to) < JOIN
    ) {
      last.to = piece.to;
    } else {
      spans.push({ ...piece });
    }
  }
  const lines: DecorationLine[] = [];
  for (const span of spans) {
    const from = Math.max(0, span.from);
    const to = Math.min(length, span.to);
    if (to <= from) continue;
    const { style, metrics, size } = span;
    const along = (offset: number) => offsetLine(ck, contour, from, to, offset, step);
    if (style.background !== null) {
      const top = metrics.ascent;
      const bottom = metrics.descent;
      lines.push({
        kind: "background",
        path: along((top + bottom) / 2),
        width: bottom - top,
        color: style.background,
      });
    }
    if (style.underline) {
      const thickness = metrics.underlineThickness ?? size / 14;
      const position = metrics.underlinePosition ?? size / 9;
      lines.push({
        kind: "line",
        path: along(position + thickness / 2),
        width: thickness,
        color: style.color,
      });
    }
    if (style.strike) {
      const thickness = metrics.strikeoutThickness ?? size / 14;
      const position = metrics.strikeoutPosition ?? metrics.ascent * 0.3;
      lines.push({
        kind: "line",
        path: along(position - thickness / 2),
        width: thickness,
        color: style.color,
      });
    }
  }
  return lines;
}

/**
 * The path from `from` to `to` along the contour moved `offset` along its normal (positive: below
 * the text, toward where its descenders go), as a polyline of points at most `step` apart.
 */
function offsetLine(
  ck: CanvasKit,
  contour: ContourMeasure,
  from: number,
  to: number,
  offset: number,
  step: number,
): Path {
  const builder = new ck.PathBuilder();
  const posTan = new Float32Array(4);
  const count = Math.max(1, Math.ceil((to - from) / step));
  for (let i = 0; i <= count; i++) {
    contour.getPosTan(from + ((to - from) * i) / count, posTan);
    const [px = 0, py = 0, tx = 1, ty = 0] = posTan;
    if (i === 0) builder.moveTo(px - ty * offset, py + tx * offset);
    else builder.lineTo(px - ty * offset, py + tx * offset);
  }
  return builder.detachAndDelete();
}

/** Strokes the decorations of one kind: their own colour, or the layer's paint (a gradient runs across the box). */
export function drawDecorations(
  ctx: PaintContext,
  lines: readonly DecorationLine[],
  kind: DecorationLine["kind"],
  fill: Resolved<PaintT>,
  box: PaintBox,
): void {
  const chosen = lines.filter((line) => line.kind === kind);
  if (chosen.length === 0) return;
  const { ck, canvas } = ctx;
  const paint = new ck.Paint();
  paint.setAntiAlias(true);
  paint.setStyle(ck.PaintStyle.Stroke);
  paint.setStrokeCap(ck.StrokeCap.Butt);
  paint.setStrokeJoin(ck.StrokeJoin.Round);
  for (const line of chosen) {
    paint.setStrokeWidth(line.width);
    if (line.color === null) {
      const release = applyPaint(ctx, paint, fill.value, fill.path, box);
      canvas.drawPath(line.path, paint);
      release();
    } else {
      paint.setColor(parseHexColor(line.color, fill.path));
      canvas.drawPath(line.path, paint);
    }
  }
  paint.delete();
}
