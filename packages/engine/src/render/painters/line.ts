import type { LineLayerT } from "../../document/layers/line.ts";
import type { PaintContext } from "../context.ts";
import { applyPaint, resolvePaint } from "../paint.ts";
import { definePainter } from "./painter.ts";

const TOP_LEFT = { x: 0, y: 0 };
const BOTTOM_RIGHT = { x: 1, y: 1 };

export const linePainter = definePainter<LineLayerT>({
  selfContained: true,
  drawsWithoutArea: true,
  paint: paintLine,
  // Half the width across the line, plus as much again for a square cap at a diagonal's end.
  overhang: (layer) => Math.ceil(layer.stroke.width) + 1,
});

function paintLine(ctx: PaintContext, layer: LineLayerT, path: string): void {
  const { ck, canvas, paint } = ctx;
  const { x, y, width, height, stroke } = layer;
  const from = layer.from ?? TOP_LEFT;
  const to = layer.to ?? BOTTOM_RIGHT;
  const color = resolvePaint(
    ctx.bindings,
    layer.bind,
    "stroke.color",
    stroke.color,
    `${path}.stroke.color`,
    layer.id,
  );
  paint.setAntiAlias(true);
  paint.setAlphaf(1);
  paint.setStyle(ck.PaintStyle.Stroke);
  paint.setStrokeWidth(stroke.width);
  paint.setStrokeCap(
    layer.cap === "round"
      ? ck.StrokeCap.Round
      : layer.cap === "square"
        ? ck.StrokeCap.Square
        : ck.StrokeCap.Butt,
  );
  const dash = layer.dash === undefined ? null : ck.PathEffect.MakeDash(evenIntervals(layer.dash), 0);
  paint.setPathEffect(dash);
  const half = stroke.width / 2;
  const area = { x: x - half, y: y - half, width: width + stroke.width, height: height + stroke.width };
  const release = applyPaint(ctx, paint, color.value, color.path, area);
  canvas.drawLine(x + from.x * width, y + from.y * height, x + to.x * width, y + to.y * height, paint);
  release();
  // The paint is shared by every layer: leave cap and path effect as the other painters expect them.
  paint.setPathEffect(null);
  dash?.delete();
  paint.setStrokeCap(ck.StrokeCap.Butt);
}

/** Skia wants on/off pairs; SVG repeats an odd list once more to make them. */
function evenIntervals(dash: readonly number[]): number[] {
  return dash.length % 2 === 0 ? [...dash] : [...dash, ...dash];
}
