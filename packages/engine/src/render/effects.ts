import type { BlendMode, CanvasKit, ImageFilter, Paint } from "canvaskit-wasm";
import type { BlendModeT, DropShadowT } from "../document/common.ts";
import type { Layer } from "../document/schema.ts";
import { parseHexColor } from "./color.ts";
import { sigmaOf } from "./shadows.ts";

/**
 * The paint of the offscreen layer a layer draws into when it needs compositing: opacity, drop shadows
 * (an image filter, for kinds without a silhouette: render/shadows.ts) and a blend mode, all in one
 * saveLayer. Null when the layer needs none of them, so
 * plain layers cost nothing extra. Image filters on a saveLayer take their parameters in the layer's
 * local space (Skia maps them through the canvas matrix), so shadows scale with `scale` and turn with a
 * rotated layer, as they do in design tools.
 */
export function compositingPaint(
  ck: CanvasKit,
  layer: Layer,
  path: string,
  /** False when the shadows are drawn from the layer's silhouette instead (render/shadows.ts). */
  filterShadows: boolean,
): Paint | null {
  const opacity = layer.opacity ?? 1;
  const shadows = filterShadows ? (layer.shadows ?? []) : [];
  const blend = layer.blend_mode ?? "normal";
  const blur = layer.blur ?? 0;
  if (opacity >= 1 && shadows.length === 0 && blend === "normal" && blur <= 0) return null;
  const paint = new ck.Paint();
  paint.setAlphaf(opacity);
  if (blend !== "normal") paint.setBlendMode(blendModeOf(ck, blend));
  const withShadows = shadows.length > 0 ? shadowFilter(ck, shadows, `${path}.shadows`) : null;
  // The layer's blur (CSS `filter: blur()`) softens it and its shadows alike, after them.
  const filter = blur > 0 ? ck.ImageFilter.MakeBlur(blur, blur, ck.TileMode.Decal, withShadows) : withShadows;
  if (filter !== null) {
    paint.setImageFilter(filter);
    filter.delete();
    if (filter !== withShadows) withShadows?.delete();
  }
  return paint;
}

/**
 * How far past the layer's own drawing its shadows reach (template px): offset plus three sigmas,
 * where a Gaussian has faded below what 8-bit colour shows. Bounding the offscreen layer by it keeps
 * the blur from filtering the whole frame (it halved the cost of a shadowed panel).
 */
export function shadowReach(layer: Layer): number {
  let reach = 0;
  for (const shadow of layer.shadows ?? []) {
    reach = Math.max(reach, Math.max(Math.abs(shadow.x), Math.abs(shadow.y)) + 3 * sigmaOf(shadow.blur));
  }
  // A blurred layer spreads its pixels (and its shadows') three deviations further.
  return Math.ceil(reach + 3 * (layer.blur ?? 0));
}

/**
 * The layer's pixels over its shadows, the first shadow lowest. One shadow is Skia's drop-shadow
 * filter; several are drop-shadow-only filters stacked with source-over blends, the layer on top.
 */
function shadowFilter(ck: CanvasKit, shadows: readonly DropShadowT[], path: string): ImageFilter {
  const make = (shadow: DropShadowT, index: number, only: boolean) => {
    const color = parseHexColor(shadow.color, `${path}[${index}].color`);
    const sigma = sigmaOf(shadow.blur);
    return only
      ? ck.ImageFilter.MakeDropShadowOnly(shadow.x, shadow.y, sigma, sigma, color, null)
      : ck.ImageFilter.MakeDropShadow(shadow.x, shadow.y, sigma, sigma, color, null);
  };
  const [first] = shadows;
  if (shadows.length === 1 && first) return make(first, 0, false);
  let below: ImageFilter | null = null;
  shadows.forEach((shadow, index) => {
    const next = make(shadow, index, true);
    if (below === null) {
      below = next;
      return;
    }
    const stacked: ImageFilter = ck.ImageFilter.MakeBlend(ck.BlendMode.SrcOver, below, next);
    below.delete();
    next.delete();
    below = stacked;
  });
  // `below` holds at least two shadows here; the layer itself (the null input) goes on top.
  const shadowsOnly = below as unknown as ImageFilter;
  const withLayer = ck.ImageFilter.MakeBlend(ck.BlendMode.SrcOver, shadowsOnly, null);
  shadowsOnly.delete();
  return withLayer;
}

function blendModeOf(ck: CanvasKit, mode: Exclude<BlendModeT, "normal">): BlendMode {
  const modes: Record<Exclude<BlendModeT, "normal">, BlendMode> = {
    multiply: ck.BlendMode.Multiply,
    screen: ck.BlendMode.Screen,
    overlay: ck.BlendMode.Overlay,
    darken: ck.BlendMode.Darken,
    lighten: ck.BlendMode.Lighten,
    "color-dodge": ck.BlendMode.ColorDodge,
    "color-burn": ck.BlendMode.ColorBurn,
    "hard-light": ck.BlendMode.HardLight,
    "soft-light": ck.BlendMode.SoftLight,
    difference: ck.BlendMode.Difference,
    exclusion: ck.BlendMode.Exclusion,
    hue: ck.BlendMode.Hue,
    saturation: ck.BlendMode.Saturation,
    color: ck.BlendMode.Color,
    luminosity: ck.BlendMode.Luminosity,
  };
  return modes[mode];
}
