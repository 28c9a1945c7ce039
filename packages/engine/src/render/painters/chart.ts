import type { PaintT } from "../../document/common.ts";
import {
  type ChartLayerT,
  type ChartPoint,
  chartColors,
  chartData,
  DEFAULT_CHART_AXIS_COLOR,
  DEFAULT_CHART_FONT,
  DEFAULT_CHART_GRID_COLOR,
  DEFAULT_CHART_LABEL_COLOR,
  DEFAULT_CHART_TRACK,
} from "../../document/layers/chart.ts";
import { fixedNumber } from "../../document/number-text.ts";
import { formatNumber } from "../../format/format-value.ts";
import type { Resolved } from "../bindings.ts";
import { valueScale } from "../chart-scale.ts";
import { parseHexColor } from "../color.ts";
import type { PaintContext } from "../context.ts";
import { type Label, layoutLabel } from "../label-text.ts";
import { applyPaint, type PaintBox, resolvePaint, resolvePaintOrNone } from "../paint.ts";
import { definePainter } from "./painter.ts";

export const chartPainter = definePainter<ChartLayerT>({
  paint: paintChart,
  // Labels may reach past the box (a long category label, the axis's top number).
  overhang: (layer) => (layer.font ?? DEFAULT_CHART_FONT).size * 4,
});

/** Room between a label and what it labels (template px). */
const LABEL_GAP = 4;

/** The chart's `i`-th series paint, after binding (`colors[i]` may be bound to a colour slot). */
function seriesPaint(ctx: PaintContext, layer: ChartLayerT, path: string, i: number): Resolved<PaintT> {
  const colors = chartColors(layer);
  const index = i % colors.length;
  const design = colors[index] as PaintT;
  const property = `colors[${index}]`;
  return resolvePaint(ctx.bindings, layer.bind, property, design, `${path}.${property}`, layer.id);
}

function paintChart(ctx: PaintContext, layer: ChartLayerT, path: string): void {
  const { points } = chartData(layer, path, ctx.bindings);
  const { paint, ck } = ctx;
  paint.setAntiAlias(true);
  paint.setAlphaf(1);
  paint.setStyle(ck.PaintStyle.Fill);
  if (layer.kind === "donut") paintDonut(ctx, layer, path, points);
  else paintSeries(ctx, layer, path, points);
  paint.setStyle(ck.PaintStyle.Fill);
}

/**
 * How a chart writes a number: through its `format` in the template's locale (an axis number with the
 * digits its step needs unless the format sets them), else its prefix, the digits, its suffix.
 */
function numberText(
  ctx: PaintContext,
  layer: ChartLayerT,
  value: number,
  decimals: number | undefined,
  axis = false,
): string {
  const format = layer.format;
  if (format !== undefined) {
    const digits =
      axis && format.decimals === undefined && format.max_decimals === undefined && format.style !== "compact"
        ? { max_decimals: decimals ?? 0 }
        : {};
    return formatNumber(value, { ...format, ...digits }, ctx.bindings.locale);
  }
  return `${layer.prefix ?? ""}${fixedNumber(value, decimals)}${layer.suffix ?? ""}`;
}

/** Draws `labels` and frees them. */
function drawAndFree(labels: readonly { label: Label; draw(label: Label): void }[]): void {
  for (const { label, draw } of labels) {
    draw(label);
    label.delete();
  }
}

/**
 * Bars and lines. The plot area is the box less the room the labels take: the value axis's numbers at
 * the left, value labels above (and below, for bars under zero), category labels beneath.
 */
function paintSeries(ctx: PaintContext, layer: ChartLayerT, path: string, points: ChartPoint[]): void {
  const { ck, canvas, paint } = ctx;
  const font = layer.font ?? DEFAULT_CHART_FONT;
  const lineHeight = font.size * (font.line_height ?? 1.2);
  const labelColor = layer.label_color ?? DEFAULT_CHART_LABEL_COLOR;
  const labelPath = `${path}.label_color`;
  const values = points.map((point) => point.value);
  const bars = layer.kind === "bar";
  const scale = valueScale(values, {
    includeZero: bars,
    min: layer.min,
    max: layer.max,
    nice: layer.value_axis === true || layer.gridlines === true,
  });
  const axisLabels =
    layer.value_axis === true
      ? scale.ticks.map((tick) => ({
          tick,
          label: layoutLabel(
            ctx,
            numberText(ctx, layer, tick, scale.tickDecimals, true),
            font,
            labelColor,
            labelPath,
          ),
        }))
      : [];
  const gutter =
    axisLabels.length > 0 ? Math.max(...axisLabels.map((a) => a.label.width)) + 2 * LABEL_GAP : 0;
  const valueRoom = layer.value_labels === true ? lineHeight + LABEL_GAP : 0;
  const halfLine = layer.value_axis === true ? lineHeight / 2 : 0;
  const categoryRoom = layer.category_labels === true ? lineHeight + LABEL_GAP : 0;
  const belowZero = bars && layer.value_labels === true && values.some((v) => v < 0) ? valueRoom : 0;
  // A line's dots and width reach past its points: kept inside the box at the top and bottom.
  const reach = bars ? 0 : lineReach(layer);
  const plot = {
    x: layer.x + gutter,
    y: layer.y + Math.max(valueRoom, halfLine, reach),
    width: layer.width - gutter,
    height:
      layer.height -
      Math.max(valueRoom, halfLine, reach) -
      Math.max(categoryRoom, halfLine, reach) -
      belowZero,
  };
  if (plot.width <= 0 || plot.height <= 0) {
    for (const { label } of axisLabels) label.delete();
    return;
  }
  const yOf = (value: number) => plot.y + ((scale.hi - value) / (scale.hi - scale.lo)) * plot.height;
  const zeroY = yOf(Math.min(scale.hi, Math.max(scale.lo, 0)));
  const right = plot.x + plot.width;

  paint.setStyle(ck.PaintStyle.Stroke);
  paint.setStrokeWidth(1);
  if (layer.gridlines === true) {
    paint.setColor(parseHexColor(layer.grid_color ?? DEFAULT_CHART_GRID_COLOR, `${path}.grid_color`));
    for (const tick of scale.ticks) canvas.drawLine(plot.x, yOf(tick), right, yOf(tick), paint);
  }
  if (layer.value_axis === true) {
    paint.setColor(parseHexColor(layer.axis_color ?? DEFAULT_CHART_AXIS_COLOR, `${path}.axis_color`));
    canvas.drawLine(plot.x, zeroY, right, zeroY, paint);
  }
  paint.setStyle(ck.PaintStyle.Fill);
  drawAndFree(
    axisLabels.map(({ tick, label }) => ({
      label,
      draw: (l: Label) => l.draw(plot.x - LABEL_GAP, yOf(tick), "right", "middle"),
    })),
  );

  const band = points.length > 0 ? plot.width / points.length : 0;
  const centre = (i: number) => plot.x + (i + 0.5) * band;
  // Values beyond a range the designer set are cut at the plot's edges.
  const saved = canvas.save();
  if (layer.min !== undefined || layer.max !== undefined) {
    canvas.clipRect(ck.XYWHRect(plot.x, plot.y, plot.width, plot.height), ck.ClipOp.Intersect, true);
  }
  let valueTops: number[];
  if (bars) valueTops = drawBars(ctx, layer, path, points, plot, band, yOf, zeroY);
  else valueTops = drawLine(ctx, layer, path, points, plot, centre, yOf, zeroY);
  canvas.restoreToCount(saved);

  const labels: { label: Label; draw(label: Label): void }[] = [];
  if (layer.value_labels === true) {
    points.forEach((point, i) => {
      const label = layoutLabel(
        ctx,
        numberText(ctx, layer, point.value, layer.decimals),
        font,
        labelColor,
        labelPath,
      );
      const at = valueTops[i] as number;
      const below = bars && point.value < 0;
      labels.push({
        label,
        draw: (l) =>
          l.draw(centre(i), below ? at + LABEL_GAP : at - LABEL_GAP, "center", below ? "top" : "bottom"),
      });
    });
  }
  if (layer.category_labels === true) {
    const top = plot.y + plot.height + belowZero + LABEL_GAP;
    points.forEach((point, i) => {
      if (point.label === null || point.label === "") return;
      const label = layoutLabel(ctx, point.label, font, labelColor, labelPath, band);
      labels.push({ label, draw: (l) => l.draw(centre(i), top, "center", "top") });
    });
  }
  drawAndFree(labels);
}

interface Plot extends PaintBox {}

/** Bars from zero to each value; returns where each bar ends (its value label's anchor). */
function drawBars(
  ctx: PaintContext,
  layer: ChartLayerT,
  path: string,
  points: ChartPoint[],
  plot: Plot,
  band: number,
  yOf: (value: number) => number,
  zeroY: number,
): number[] {
  const { canvas, paint } = ctx;
  const width = band * (1 - (layer.bar_gap ?? 0.3));
  return points.map((point, i) => {
    const end = yOf(point.value);
    const top = Math.min(end, zeroY);
    const height = Math.abs(end - zeroY);
    if (height > 0 && width > 0) {
      const left = plot.x + i * band + (band - width) / 2;
      const r = Math.min(layer.corner_radius ?? 0, width / 2, height);
      // Rounded at the end away from zero: the top of a bar up, the bottom of a bar down.
      const up = point.value >= 0 ? r : 0;
      const down = point.value >= 0 ? 0 : r;
      const rrect = Float32Array.of(
        left,
        top,
        left + width,
        top + height,
        up,
        up,
        up,
        up,
        down,
        down,
        down,
        down,
      );
      const color = seriesPaint(ctx, layer, path, i);
      const release = applyPaint(ctx, paint, color.value, color.path, plot);
      canvas.drawRRect(rrect, paint);
      release();
    }
    return end;
  });
}

/**
 * The line through the points (round joins and ends), the area under it down to zero, and a dot at
 * each point; returns the top of each point (its value label's anchor).
 */
function drawLine(
  ctx: PaintContext,
  layer: ChartLayerT,
  path: string,
  points: ChartPoint[],
  plot: Plot,
  centre: (i: number) => number,
  yOf: (value: number) => number,
  zeroY: number,
): number[] {
  const { ck, canvas, paint, bindings } = ctx;
  const { lineWidth, radius } = lineStyle(layer);
  const ys = points.map((point) => yOf(point.value));
  if (points.length === 0) return [];
  const color = seriesPaint(ctx, layer, path, 0);
  const area = resolvePaintOrNone(bindings, layer.bind, "area", layer.area ?? null, `${path}.area`, layer.id);
  if (area.value !== null && points.length > 1) {
    const builder = new ck.PathBuilder();
    builder.moveTo(centre(0), zeroY);
    ys.forEach((y, i) => {
      builder.lineTo(centre(i), y);
    });
    builder.lineTo(centre(points.length - 1), zeroY);
    builder.close();
    const shape = builder.detachAndDelete();
    const release = applyPaint(ctx, paint, area.value, area.path, plot);
    canvas.drawPath(shape, paint);
    release();
    shape.delete();
  }
  const release = applyPaint(ctx, paint, color.value, color.path, plot);
  if (points.length > 1) {
    const builder = new ck.PathBuilder();
    ys.forEach((y, i) => {
      if (i === 0) builder.moveTo(centre(i), y);
      else builder.lineTo(centre(i), y);
    });
    const line = builder.detachAndDelete();
    paint.setStyle(ck.PaintStyle.Stroke);
    paint.setStrokeWidth(lineWidth);
    paint.setStrokeJoin(ck.StrokeJoin.Round);
    paint.setStrokeCap(ck.StrokeCap.Round);
    canvas.drawPath(line, paint);
    line.delete();
    paint.setStrokeJoin(ck.StrokeJoin.Miter);
    paint.setStrokeCap(ck.StrokeCap.Butt);
    paint.setStyle(ck.PaintStyle.Fill);
  }
  if (radius > 0) {
    ys.forEach((y, i) => {
      canvas.drawCircle(centre(i), y, radius, paint);
    });
  }
  release();
  return ys.map((y) => y - lineReach(layer));
}

function lineStyle(layer: ChartLayerT): { lineWidth: number; radius: number } {
  const lineWidth = layer.line_width ?? 3;
  return { lineWidth, radius: layer.point_radius ?? lineWidth + 1 };
}

/** How far a line's drawing reaches from its points: a dot's radius, or half the line's width. */
function lineReach(layer: ChartLayerT): number {
  const { lineWidth, radius } = lineStyle(layer);
  return Math.max(radius, lineWidth / 2);
}

/**
 * Slices clockwise from the top, one per positive value, each its value's share of their sum. With
 * nothing to divide (no data, all zero or negative), the track alone.
 */
function paintDonut(ctx: PaintContext, layer: ChartLayerT, path: string, points: ChartPoint[]): void {
  const { ck, canvas, paint, bindings } = ctx;
  const outer = Math.min(layer.width, layer.height) / 2;
  if (outer <= 0) return;
  const cx = layer.x + layer.width / 2;
  const cy = layer.y + layer.height / 2;
  const inner = outer * (layer.hole ?? 0.6);
  const square: PaintBox = { x: cx - outer, y: cy - outer, width: 2 * outer, height: 2 * outer };
  const outerOval = ck.LTRBRect(cx - outer, cy - outer, cx + outer, cy + outer);
  const innerOval = ck.LTRBRect(cx - inner, cy - inner, cx + inner, cy + inner);
  const ring = () => {
    const builder = new ck.PathBuilder();
    builder.addOval(outerOval);
    if (inner > 0) builder.addOval(innerOval, true);
    return builder.detachAndDelete();
  };
  const total = points.reduce((sum, point) => sum + Math.max(0, point.value), 0);
  if (!(total > 0)) {
    const design = layer.track === undefined ? DEFAULT_CHART_TRACK : layer.track;
    const track = resolvePaintOrNone(bindings, layer.bind, "track", design, `${path}.track`, layer.id);
    if (track.value === null) return;
    const shape = ring();
    const release = applyPaint(ctx, paint, track.value, track.path, square);
    canvas.drawPath(shape, paint);
    release();
    shape.delete();
    return;
  }
  const middles: { i: number; angle: number }[] = [];
  let start = -90;
  points.forEach((point, i) => {
    if (!(point.value > 0)) return;
    const sweep = (360 * point.value) / total;
    let shape: ReturnType<typeof ring>;
    if (sweep >= 360) shape = ring();
    else {
      const builder = new ck.PathBuilder();
      builder.arcToOval(outerOval, start, sweep, true);
      if (inner > 0) builder.arcToOval(innerOval, start + sweep, -sweep, false);
      else builder.lineTo(cx, cy);
      builder.close();
      shape = builder.detachAndDelete();
    }
    const color = seriesPaint(ctx, layer, path, i);
    const release = applyPaint(ctx, paint, color.value, color.path, square);
    canvas.drawPath(shape, paint);
    release();
    shape.delete();
    middles.push({ i, angle: start + sweep / 2 });
    start += sweep;
  });
  if (layer.value_labels !== true) return;
  const font = layer.font ?? DEFAULT_CHART_FONT;
  const labelColor = layer.label_color ?? DEFAULT_CHART_LABEL_COLOR;
  // In the middle of the slice's band (a pie's: two thirds of the way out).
  const radius = inner > 0 ? (outer + inner) / 2 : outer * 0.66;
  for (const { i, angle } of middles) {
    const point = points[i] as ChartPoint;
    const text = numberText(ctx, layer, point.value, layer.decimals);
    const label = layoutLabel(ctx, text, font, labelColor, `${path}.label_color`);
    const radians = (angle * Math.PI) / 180;
    label.draw(cx + radius * Math.cos(radians), cy + radius * Math.sin(radians), "center", "middle");
    label.delete();
  }
}
