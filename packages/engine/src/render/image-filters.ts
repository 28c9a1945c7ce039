import type { CanvasKit, ColorFilter, Paint } from "canvaskit-wasm";
import type { ImageFiltersT } from "../document/layers/image-filters.ts";
import type { Bindings } from "./bindings.ts";
import { parseHexColor } from "./color.ts";
import { withColorBinding } from "./color-bindings.ts";

/**
 * An image layer's `filters` (document/layers/image-filters.ts says what each does) as Skia colour
 * matrices and a blur, applied in the order given there.
 */

/** A 4x5 row-major colour matrix (Skia's layout; the last column is an offset in 0..1). */
export type ColorMatrix = number[];

/** The filters that change anything, as colour matrices in the order they apply. */
function colorMatrices(
  filters: ImageFiltersT,
  duotone: { dark: Float32Array; light: Float32Array } | null,
): ColorMatrix[] {
  const matrices: ColorMatrix[] = [];
  const { brightness = 1, contrast = 1, saturation = 1, grayscale = 0, sepia = 0 } = filters;
  if (brightness !== 1) matrices.push(scaleOffset(brightness, 0));
  if (contrast !== 1) matrices.push(scaleOffset(contrast, 0.5 - 0.5 * contrast));
  if (saturation !== 1) matrices.push(saturate(saturation));
  if (grayscale > 0) matrices.push(saturate(1 - grayscale));
  if (sepia > 0) matrices.push(sepiaMatrix(sepia));
  if (duotone) matrices.push(duotoneMatrix(duotone.dark, duotone.light));
  return matrices;
}

function scaleOffset(scale: number, offset: number): ColorMatrix {
  return [scale, 0, 0, 0, offset, 0, scale, 0, 0, offset, 0, 0, scale, 0, offset, 0, 0, 0, 1, 0];
}

/** CSS `saturate(s)` (Filter Effects 1, feColorMatrix saturate); grayscale(a) is saturate(1 - a). */
function saturate(s: number): ColorMatrix {
  return [
    0.213 + 0.787 * s,
    0.715 - 0.715 * s,
    0.072 - 0.072 * s,
    0,
    0,
    0.213 - 0.213 * s,
    0.715 + 0.285 * s,
    0.072 - 0.072 * s,
    0,
    0,
    0.213 - 0.213 * s,
    0.715 - 0.715 * s,
    0.072 + 0.928 * s,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
  ];
}

/** CSS `sepia(a)`. */
function sepiaMatrix(a: number): ColorMatrix {
  const s = 1 - a;
  return [
    0.393 + 0.607 * s,
    0.769 - 0.769 * s,
    0.189 - 0.189 * s,
    0,
    0,
    0.349 - 0.349 * s,
    0.686 + 0.314 * s,
    0.168 - 0.168 * s,
    0,
    0,
    0.272 - 0.272 * s,
    0.534 - 0.534 * s,
    0.131 + 0.869 * s,
    0,
    0,
    0,
    0,
    0,
    1,
    0,
  ];
}

/** Each channel: dark + luminance * (light - dark); luminance is linear in R, G, B, so one matrix. */
function duotoneMatrix(dark: Float32Array, light: Float32Array): ColorMatrix {
  const row = (c: number): number[] => {
    const from = dark[c] ?? 0;
    const span = (light[c] ?? 0) - from;
    return [0.2126 * span, 0.7152 * span, 0.0722 * span, 0, from];
  };
  return [...row(0), ...row(1), ...row(2), 0, 0, 0, 1, 0];
}

/** The colour matrices of a layer's filters in the order they apply, duotone colours after binding. */
export function filterMatrices(
  filters: ImageFiltersT,
  bind: Readonly<Record<string, string>> | undefined,
  bindings: Bindings,
  path: string,
  layerId: string,
): ColorMatrix[] {
  let duotone: { dark: Float32Array; light: Float32Array } | null = null;
  if (filters.duotone) {
    const tone = (which: "dark" | "light") => {
      const design = filters.duotone?.[which] ?? "#000000";
      const at = `${path}.filters.duotone.${which}`;
      const property = `filters.duotone.${which}`;
      // The layer's `bind_colors` tint it; its alpha stays the literal's (opaque, validation holds it so).
      const color = withColorBinding(
        bindings.resolve(bind, property, design, at, layerId),
        bind,
        property,
        design,
      );
      return parseHexColor(color.value, color.path);
    };
    duotone = { dark: tone("dark"), light: tone("light") };
  }
  return colorMatrices(filters, duotone);
}

/**
 * A paint drawing an image through the layer's filters, or null when they change nothing (the image
 * is then drawn without a paint, as before filters existed). `blurScale` converts template px to the
 * canvas's units for the blur (the scale when the canvas is in device px, 1 when it is in template px).
 * The caller deletes the paint and, when `blurs`, clips to the image's box first.
 */
export function imageFilterPaint(
  ck: CanvasKit,
  filters: ImageFiltersT | undefined,
  bind: Readonly<Record<string, string>> | undefined,
  bindings: Bindings,
  path: string,
  layerId: string,
  blurScale: number,
): { paint: Paint; blurs: boolean } | null {
  if (filters === undefined) return null;
  const matrices = filterMatrices(filters, bind, bindings, path, layerId);
  const blur = (filters.blur ?? 0) * blurScale;
  if (matrices.length === 0 && blur <= 0) return null;
  const paint = new ck.Paint();
  if (matrices.length > 0) {
    // Composed filter by filter (not multiplied into one matrix) so each result is clamped, as in CSS.
    const made: ColorFilter[] = [];
    let filter: ColorFilter | null = null;
    for (const matrix of matrices) {
      const next = ck.ColorFilter.MakeMatrix(matrix);
      made.push(next);
      filter = filter === null ? next : ck.ColorFilter.MakeCompose(next, filter);
      if (filter !== next) made.push(filter);
    }
    paint.setColorFilter(filter);
    for (const object of made) object.delete();
  }
  if (blur > 0) {
    const imageFilter = ck.ImageFilter.MakeBlur(blur, blur, ck.TileMode.Clamp, null);
    paint.setImageFilter(imageFilter);
    imageFilter.delete();
  }
  return { paint, blurs: blur > 0 };
}
