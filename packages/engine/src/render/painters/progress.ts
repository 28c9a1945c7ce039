import {
  DEFAULT_PROGRESS_FILL,
  DEFAULT_PROGRESS_LABEL_COLOR,
  DEFAULT_PROGRESS_TRACK,
  type ProgressLayerT,
  progressFraction,
  progressLabelText,
  progressNumbers,
  ringGeometry,
} from "../../document/layers/progress.ts";
import { formatNumber } from "../../format/format-value.ts";
import type { PaintContext } from "../context.ts";
import { layoutLabel } from "../label-text.ts";
import { applyPaint, type PaintBox, resolveLayerPaint, resolvePaintOrNone } from "../paint.ts";
import { definePainter } from "./painter.ts";

export const progressPainter = definePainter<ProgressLayerT>({
  paint: paintProgress,
  // A label wider than a small ring or bar may reach past the box.
  overhang: (layer) => (layer.label === undefined ? 1 : layer.label.font.size * 4),
});

function paintProgress(ctx: PaintContext, layer: ProgressLayerT, path: string): void {
  const numbers = progressNumbers(layer, path, ctx.bindings);
  const { value } = numbers;
  const min = numbers.min.value;
  const max = numbers.max.value;
  const fraction = progressFraction(value, min, max);
  if (layer.shape === "ring") paintRing(ctx, layer, path, fraction);
  else paintBar(ctx, layer, path, fraction);
  const label = layer.label;
  if (label === undefined) return;
  const text = progressLabelText(label, value, min, max, (number, format) =>
    formatNumber(number, format, ctx.bindings.locale),
  );
  const color = label.color ?? DEFAULT_PROGRESS_LABEL_COLOR;
  const laidOut = layoutLabel(ctx, text, label.font, color, `${path}.label.color`);
  const middle = layer.y + layer.height / 2;
  if (layer.shape === "ring") {
    laidOut.draw(layer.x + layer.width / 2, middle, "center", "middle");
  } else {
    // Inside the bar, half its height from the ends (where the rounded ends curve away).
    const inset = layer.height / 2;
    const align = label.align ?? "center";
    if (align === "end") {
      // Inside the fill's end when the label fits there, else just after it.
      const end = layer.x + layer.width * fraction;
      const inside = laidOut.width + 2 * inset <= layer.width * fraction;
      laidOut.draw(inside ? end - inset : end + inset / 2, middle, inside ? "right" : "left", "middle");
    } else {
      const x =
        align === "left"
          ? layer.x + inset
          : align === "right"
            ? layer.x + layer.width - inset
            : layer.x + layer.width / 2;
      laidOut.draw(x, middle, align, "middle");
    }
  }
  laidOut.delete();
}

/** The track over the whole box, the fill from its left edge, both clipped to the track's outline. */
function paintBar(ctx: PaintContext, layer: ProgressLayerT, path: string, fraction: number): void {
  const { ck, canvas, paint, bindings } = ctx;
  const { x, y, width, height } = layer;
  const radius = layer.rounded === false ? 0 : Math.min(height, width) / 2;
  const box: PaintBox = { x, y, width, height };
  const outline = ck.RRectXY(ck.XYWHRect(x, y, width, height), radius, radius);
  paint.setAntiAlias(true);
  paint.setAlphaf(1);
  paint.setStyle(ck.PaintStyle.Fill);
  const design = layer.track === undefined ? DEFAULT_PROGRESS_TRACK : layer.track;
  const track = resolvePaintOrNone(bindings, layer.bind, "track", design, `${path}.track`, layer.id);
  if (track.value !== null) {
    const release = applyPaint(ctx, paint, track.value, track.path, box);
    canvas.drawRRect(outline, paint);
    release();
  }
  const filled = width * fraction;
  if (filled <= 0) return;
  const fill = resolveLayerPaint(bindings, layer, "fill", layer.fill ?? DEFAULT_PROGRESS_FILL, path);
  // The fill's own end is rounded like the track's; shorter than the track is high, it narrows to a
  // lens inside the track's rounded start rather than poking out of it.
  const end = Math.min(radius, filled / 2);
  const saved = canvas.save();
  canvas.clipRRect(outline, ck.ClipOp.Intersect, true);
  const release = applyPaint(ctx, paint, fill.value, fill.path, box);
  canvas.drawRRect(ck.RRectXY(ck.XYWHRect(x, y, filled, height), end, Math.min(radius, height / 2)), paint);
  release();
  canvas.restoreToCount(saved);
}

/** A circle stroked `thickness` wide: the track all round, the fill clockwise from the top. */
function paintRing(ctx: PaintContext, layer: ProgressLayerT, path: string, fraction: number): void {
  const { ck, canvas, paint, bindings } = ctx;
  const ring = ringGeometry(layer);
  if (ring.radius <= 0 && ring.width <= 0) return;
  const square: PaintBox = {
    x: ring.cx - ring.radius - ring.width / 2,
    y: ring.cy - ring.radius - ring.width / 2,
    width: 2 * ring.radius + ring.width,
    height: 2 * ring.radius + ring.width,
  };
  const oval = ck.LTRBRect(
    ring.cx - ring.radius,
    ring.cy - ring.radius,
    ring.cx + ring.radius,
    ring.cy + ring.radius,
  );
  paint.setAntiAlias(true);
  paint.setAlphaf(1);
  paint.setStyle(ck.PaintStyle.Stroke);
  paint.setStrokeWidth(ring.width);
  paint.setStrokeCap(ck.StrokeCap.Butt);
  const design = layer.track === undefined ? DEFAULT_PROGRESS_TRACK : layer.track;
  const track = resolvePaintOrNone(bindings, layer.bind, "track", design, `${path}.track`, layer.id);
  if (track.value !== null) {
    const release = applyPaint(ctx, paint, track.value, track.path, square);
    canvas.drawOval(oval, paint);
    release();
  }
  if (fraction > 0) {
    const fill = resolveLayerPaint(bindings, layer, "fill", layer.fill ?? DEFAULT_PROGRESS_FILL, path);
    const full = fraction >= 1;
    // Round caps reach half the width past the arc's ends; a full ring has no ends to round.
    paint.setStrokeCap(layer.rounded === false || full ? ck.StrokeCap.Butt : ck.StrokeCap.Round);
    const release = applyPaint(ctx, paint, fill.value, fill.path, square);
    if (full) canvas.drawOval(oval, paint);
    else canvas.drawArc(oval, -90, 360 * fraction, false, paint);
    release();
  }
  paint.setStrokeCap(ck.StrokeCap.Butt);
  paint.setStyle(ck.PaintStyle.Fill);
}
