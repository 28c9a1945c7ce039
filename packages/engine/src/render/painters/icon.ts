import type { IconLayerT } from "../../document/layers/icon.ts";
import { ICON_SET } from "../../document/layers/icon-names.ts";
import type { PaintContext } from "../context.ts";
import { EngineError } from "../errors.ts";
import { ICON_GRID } from "../icons.ts";
import { applyPaint, resolvePaint } from "../paint.ts";
import { definePainter } from "./painter.ts";

const DEFAULT_STROKE_WIDTH = 2;

export const iconPainter = definePainter<IconLayerT>({
  paint: paintIcon,
  // Lucide keeps strokes on the grid's inner 20 units; wider strokes may reach past the box.
  overhang: (layer) =>
    Math.ceil(((layer.stroke_width ?? DEFAULT_STROKE_WIDTH) / 2) * (iconSize(layer) / ICON_GRID)) + 1,
});

/** The drawn square: the box's shorter side. */
function iconSize(layer: IconLayerT): number {
  return Math.min(layer.width, layer.height);
}

function paintIcon(ctx: PaintContext, layer: IconLayerT, path: string): void {
  const { ck, canvas, paint } = ctx;
  if (!ctx.icons.has(layer.icon)) {
    throw new EngineError(
      "icon_unavailable",
      `${path}.icon`,
      `the host supplied no data for icon ${JSON.stringify(layer.icon)} (the engine needs ${ICON_SET}'s icon-nodes.json)`,
    );
  }
  const size = iconSize(layer);
  const outline = ctx.icons.outline(layer.icon, layer.stroke_width ?? DEFAULT_STROKE_WIDTH, size, ctx.scale);
  if (outline === null) return;
  const color = resolvePaint(ctx.bindings, layer.bind, "color", layer.color, `${path}.color`, layer.id);
  const left = layer.x + (layer.width - size) / 2;
  const top = layer.y + (layer.height - size) / 2;
  const saved = canvas.save();
  canvas.translate(left, top);
  paint.setAntiAlias(true);
  paint.setAlphaf(1);
  paint.setStyle(ck.PaintStyle.Fill);
  const box = { x: layer.x - left, y: layer.y - top, width: layer.width, height: layer.height };
  const release = applyPaint(ctx, paint, color.value, color.path, box);
  canvas.drawPath(outline, paint);
  release();
  canvas.restoreToCount(saved);
}
