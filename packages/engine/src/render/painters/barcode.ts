import {
  type BarcodeLayerT,
  DEFAULT_QUIET_ZONE,
  encodeBarcode,
  fontFamily,
  fontSize,
  showsText,
  symbologyOf,
} from "../../document/layers/barcode.ts";
import { boundValue } from "../../document/layers/coded-value.ts";
import { parseHexColor } from "../color.ts";
import type { PaintContext } from "../context.ts";
import { EngineError } from "../errors.ts";
import { type PaintBox, resolvePaint } from "../paint.ts";
import { layoutText } from "../text-box.ts";
import { drawTextPasses, firstColorOf } from "../text-styles.ts";
import { beginCrispFill, drawBackground, drawInPaint, endCrispFill } from "./coded-value.ts";
import { definePainter } from "./painter.ts";

export const barcodePainter = definePainter<BarcodeLayerT>({
  paint: paintBarcode,
  overhang: (layer) => 1 + (showsText(layer) ? fontSize(layer) : 0),
});

/**
 * Module width in template px: the largest whole number of device pixels that fits the box, so bars
 * are crisp and equally wide; a box narrower than one device pixel per module gets fractional modules.
 */
function moduleWidth(width: number, modules: number, scale: number): number {
  const devicePixels = Math.floor((width * scale) / modules);
  return devicePixels >= 1 ? devicePixels / scale : width / modules;
}

function paintBarcode(ctx: PaintContext, layer: BarcodeLayerT, path: string): void {
  const value = boundValue(layer, path, ctx.bindings);
  if (value.value === "") return;
  const symbology = symbologyOf(layer);
  const symbol = encodeBarcode(value.value, symbology);
  if (typeof symbol === "string") throw new EngineError("value_not_encodable", value.path, symbol);
  const { ck, canvas, scale } = ctx;
  const box: PaintBox = { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
  const size = fontSize(layer);
  const text = showsText(layer) ? symbol.text : "";
  // The text line (size x 1.2) plus a gap of a quarter of the size above it.
  const textHeight = text === "" ? 0 : Math.min(layer.height, size * 1.45);
  const barsHeight = layer.height - textHeight;

  beginCrispFill(ctx);
  drawBackground(ctx, layer, path, box);
  const quiet = layer.quiet_zone ?? DEFAULT_QUIET_ZONE[symbology];
  const module = moduleWidth(layer.width, symbol.modules.length + quiet * 2, scale);
  const symbolWidth = module * (symbol.modules.length + quiet * 2);
  // Centred, with the left edge on a device pixel so every bar edge is on one.
  const left = Math.round((layer.x + (layer.width - symbolWidth) / 2) * scale) / scale + quiet * module;
  const color = layer.color ?? "#000000";
  if (barsHeight > 0) {
    const builder = new ck.PathBuilder();
    for (let start = 0; start < symbol.modules.length; ) {
      if (symbol.modules[start] !== "1") {
        start++;
        continue;
      }
      let end = start;
      while (symbol.modules[end] === "1") end++;
      builder.addRect(ck.XYWHRect(left + start * module, layer.y, (end - start) * module, barsHeight));
      start = end;
    }
    const bars = builder.detachAndDelete();
    drawInPaint(ctx, layer, path, "color", color, box, () => canvas.drawPath(bars, ctx.paint));
    bars.delete();
  }
  endCrispFill(ctx);
  if (text !== "")
    drawText(ctx, layer, path, text, size, { ...box, y: layer.y + barsHeight, height: textHeight });
}

/** The human-readable line, centred in `area` (below the bars), in the bars' paint; shrunk to fit its width. */
function drawText(
  ctx: PaintContext,
  layer: BarcodeLayerT,
  path: string,
  text: string,
  size: number,
  area: PaintBox,
): void {
  const design = layer.color ?? "#000000";
  const paint = resolvePaint(ctx.bindings, layer.bind, "color", design, `${path}.color`, layer.id);
  const layout = layoutText(
    ctx.paragraphs,
    {
      text,
      families: ctx.fonts.familiesFor(fontFamily(layer)),
      size,
      lineHeight: 1.2,
      letterSpacing: 0,
      weight: 400,
      italic: false,
      color: parseHexColor(firstColorOf(paint.value), paint.path),
      align: "center",
      rtl: false,
    },
    { width: area.width, height: area.height },
    { maxLines: 1, shrink: true, minSize: Math.min(size, 4) },
  );
  const origin = { x: area.x, y: area.y + area.height - layout.paragraph.getHeight() };
  const box = { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
  drawTextPasses(ctx, layout, paint, null, origin, box);
  layout.paragraph.delete();
}
