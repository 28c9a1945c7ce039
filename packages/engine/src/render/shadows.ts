import type { CanvasKit, InputRRect, Path } from "canvaskit-wasm";
import { type DropShadowT, isImagePattern, type PaintT } from "../document/common.ts";
import { parseHexColor } from "./color.ts";
import type { PaintContext } from "./context.ts";
import { patternAlpha } from "./pattern.ts";

/**
 * What a layer casts its drop shadows from, when its kind can say without drawing: its outline in
 * the layer's drawing coordinates (the caller deletes it) and how opaque the layer is over it (a fill
 * at 80 % casts an 80 % shadow, as a drop-shadow filter of its pixels does).
 */
export interface Silhouette {
  outline: Path;
  alpha: number;
  /** The same outline as a rounded rectangle (or oval), when it is one: Skia blurs those about 4x faster. */
  rrect?: InputRRect;
}

/** CSS blur radius -> Gaussian sigma (the same relation CSS box-shadow and text-shadow use). */
export const sigmaOf = (blur: number) => blur / 2;

/**
 * Draws drop shadows from a silhouette, first lowest: the outline filled with each shadow's colour,
 * moved by its offset and blurred by a mask filter. Why not the drop-shadow image filter of the
 * layer's pixels: in the engine's WebAssembly Skia that filter costs about 30 ns a pixel of the
 * blurred area (a shadowed 640x550 panel took 65 ms a shadow), while a blurred mask of an outline is a
 * small A8 mask blitted in one colour (about 1 ms). Offsets and blur follow the canvas: they scale
 * with `scale` and turn with a rotated layer, as the filter's did.
 */
export function drawSilhouetteShadows(
  ctx: PaintContext,
  shadows: readonly DropShadowT[],
  silhouette: Silhouette,
  path: string,
): void {
  const { ck, canvas } = ctx;
  const paint = new ck.Paint();
  paint.setAntiAlias(true);
  paint.setStyle(ck.PaintStyle.Fill);
  shadows.forEach((shadow, index) => {
    const color = parseHexColor(shadow.color, `${path}[${index}].color`);
    color[3] = (color[3] ?? 1) * silhouette.alpha;
    paint.setColor(color);
    const blur =
      shadow.blur > 0 ? ck.MaskFilter.MakeBlur(ck.BlurStyle.Normal, sigmaOf(shadow.blur), true) : null;
    paint.setMaskFilter(blur);
    canvas.save();
    canvas.translate(shadow.x, shadow.y);
    if (silhouette.rrect) canvas.drawRRect(silhouette.rrect, paint);
    else canvas.drawPath(silhouette.outline, paint);
    canvas.restore();
    paint.setMaskFilter(null);
    blur?.delete();
  });
  paint.delete();
}

/** How opaque a paint is at its most opaque (a gradient's strongest stop); 0 for none. */
export function paintAlpha(value: PaintT | null, path: string): number {
  if (value === null) return 0;
  if (typeof value === "string") return parseHexColor(value, path)[3] ?? 1;
  // An image pattern may be opaque anywhere: its outline casts a full shadow.
  if (isImagePattern(value)) return 1;
  if (value.type === "pattern") return patternAlpha(value, path);
  return Math.max(
    ...value.stops.map((stop, i) => parseHexColor(stop.color, `${path}.stops[${i}].color`)[3] ?? 1),
  );
}

/** The part of `outline` inside `mask` (both in the layer's drawing coordinates); deletes `outline`. */
export function intersectOutline(ck: CanvasKit, outline: Path, mask: Path): Path | null {
  const inside = ck.Path.MakeFromOp(outline, mask, ck.PathOp.Intersect);
  outline.delete();
  return inside;
}
