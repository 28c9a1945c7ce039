import type { PaintT } from "../../document/common.ts";
import type { CodedLayer } from "../../document/layers/coded-value.ts";
import type { PaintContext } from "../context.ts";
import { applyPaint, type PaintBox, resolvePaint } from "../paint.ts";

/** How the machine-readable kinds (QR codes, barcodes) draw their modules: crisply, in a paint. */

/**
 * Sets the shared paint up for modules: filled, opaque, no antialiasing (module edges land on whole
 * device pixels, with no seams between neighbours). Call `endCrispFill` when done.
 */
export function beginCrispFill(ctx: PaintContext): void {
  ctx.paint.setAntiAlias(false);
  ctx.paint.setAlphaf(1);
  ctx.paint.setStyle(ctx.ck.PaintStyle.Fill);
}

export function endCrispFill(ctx: PaintContext): void {
  ctx.paint.setAntiAlias(true);
}

/**
 * Draws with the layer's paint property `property` (after binding; a gradient laid out over `box`):
 * `draw` issues the canvas calls with the shared paint set to it.
 */
export function drawInPaint(
  ctx: PaintContext,
  layer: CodedLayer,
  path: string,
  property: string,
  design: PaintT,
  box: PaintBox,
  draw: () => void,
): void {
  const resolved = resolvePaint(ctx.bindings, layer.bind, property, design, `${path}.${property}`, layer.id);
  const release = applyPaint(ctx, ctx.paint, resolved.value, resolved.path, box);
  draw();
  release();
}

/** The light background of a code: white by default, none when the design sets `null`. */
export function drawBackground(
  ctx: PaintContext,
  layer: CodedLayer & { background?: PaintT | null },
  path: string,
  box: PaintBox,
): void {
  const background = layer.background === undefined ? "#FFFFFF" : layer.background;
  if (background === null) return;
  drawInPaint(ctx, layer, path, "background", background, box, () => {
    ctx.canvas.drawRect(ctx.ck.XYWHRect(box.x, box.y, box.width, box.height), ctx.paint);
  });
}
