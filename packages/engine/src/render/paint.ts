import type { CanvasKit, Shader, Paint as SkPaint } from "canvaskit-wasm";
import type { PreparedImage } from "../api.ts";
import {
  isGradient,
  isImagePattern,
  leadColor,
  type PaintT,
  type RadialGradientT,
} from "../document/common.ts";
import type { Bindings, Resolved } from "./bindings.ts";
import { parseHexColor } from "./color.ts";
import { withColorBinding } from "./color-bindings.ts";
import { imagePatternShader } from "./image-pattern.ts";
import { isOpaquePattern, patternShader } from "./pattern.ts";

/**
 * What a paint draws with: CanvasKit, and for an image pattern the render's prepared images and its
 * scale (a PaintContext is one).
 */
export interface PaintSource {
  ck: CanvasKit;
  images: ReadonlyMap<string, PreparedImage>;
  scale: number;
}

/** The box a paint is laid out in (template px): gradients run across it. */
export interface PaintBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

// Skia's gradient flag: interpolate in premultiplied colour, as CSS does (a stop fading to
// transparent does not turn grey on the way).
const INTERPOLATE_PREMULTIPLIED = 1;

/**
 * A paint property after slot binding. A colour slot bound to the property itself replaces the whole
 * paint with a solid colour; `<property>.stops[i].color` bindings replace one gradient stop's colour.
 * `path` names the value in errors (the slot value's path when a slot supplied it).
 */
export function resolvePaint(
  bindings: Bindings,
  bind: Readonly<Record<string, string>> | undefined,
  property: string,
  design: PaintT,
  designPath: string,
  layerId: string | null,
): Resolved<PaintT> {
  if (!isGradient(design) || bind?.[property] !== undefined) {
    // A pattern keeps its design unless a colour slot replaces the whole paint.
    if (typeof design !== "string" && bind?.[property] === undefined) {
      return { value: design, slot: null, path: designPath };
    }
    const designColor = leadColor(design, "#00000000");
    return withColorBinding(
      bindings.resolve(bind, property, designColor, designPath, layerId),
      bind,
      property,
      designColorOf(design),
    );
  }
  let changed = false;
  const stops = design.stops.map((stop, i) => {
    const key = `${property}.stops[${i}].color`;
    if (bind?.[key] === undefined) return stop;
    const color = bindings.resolve(bind, key, stop.color, `${designPath}.stops[${i}].color`, layerId);
    changed = true;
    return { offset: stop.offset, color: withColorBinding(color, bind, key, stop.color).value };
  });
  return { value: changed ? { ...design, stops } : design, slot: null, path: designPath };
}

/**
 * The design colour whose alpha a colour bound over `design` keeps: the colour, a gradient's first
 * stop, a pattern's ink; none for nothing drawn or an image pattern (it has no colour).
 */
export function designColorOf(design: PaintT | null): string | null {
  return design === null || isImagePattern(design) ? null : leadColor(design, "#00000000");
}

/** `resolvePaint` of a layer's own paint property (`stroke.color`), reported at `<path>.<property>`. */
export function resolveLayerPaint(
  bindings: Bindings,
  layer: { bind?: Readonly<Record<string, string>> | undefined; id: string },
  property: string,
  design: PaintT,
  path: string,
): Resolved<PaintT> {
  return resolvePaint(bindings, layer.bind, property, design, `${path}.${property}`, layer.id);
}

/** `resolvePaint` for a property that may be `null` (nothing drawn) in the design; a bound colour slot still colours it. */
export function resolvePaintOrNone(
  bindings: Bindings,
  bind: Readonly<Record<string, string>> | undefined,
  property: string,
  design: PaintT | null,
  designPath: string,
  layerId: string | null,
): Resolved<PaintT | null> {
  if (design === null) {
    const found = bindings.resolve(bind, property, null, designPath, layerId);
    return found.value === null
      ? found
      : withColorBinding({ ...found, value: found.value }, bind, property, null);
  }
  return resolvePaint(bindings, bind, property, design, designPath, layerId);
}

/**
 * Sets `paint` to draw `value` over `box`: a colour, or a gradient shader. Returns the function that
 * frees the shader; call it once the drawing is done (the paint is then back to a plain colour).
 */
export function applyPaint(
  source: PaintSource,
  paint: SkPaint,
  value: PaintT,
  path: string,
  box: PaintBox,
): () => void {
  const { ck } = source;
  if (typeof value === "string") {
    paint.setColor(parseHexColor(value, path));
    return noop;
  }
  if (isImagePattern(value)) {
    const shader = imagePatternShader(source, value, box);
    // No pixels (the image failed to load): nothing drawn, as an image layer without pixels.
    if (shader === null) {
      paint.setColor(TRANSPARENT);
      return noop;
    }
    return applyShader(paint, shader);
  }
  if (value.type === "pattern") return applyShader(paint, patternShader(ck, value, path, box));
  const colors = value.stops.map((stop, i) => parseHexColor(stop.color, `${path}.stops[${i}].color`));
  const offsets = value.stops.map((stop) => stop.offset);
  let shader: Shader;
  if (value.type === "linear") {
    const [start, end] = linearEnds(value.angle ?? 180, box);
    shader = ck.Shader.MakeLinearGradient(
      start,
      end,
      colors,
      offsets,
      ck.TileMode.Clamp,
      undefined,
      INTERPOLATE_PREMULTIPLIED,
    );
  } else {
    const { cx, cy, rx, ry } = radialGeometry(value, box);
    shader = ck.Shader.MakeRadialGradient(
      [cx, cy],
      rx,
      colors,
      offsets,
      ck.TileMode.Clamp,
      rx === ry ? undefined : ck.Matrix.scaled(1, ry / rx, cx, cy),
      INTERPOLATE_PREMULTIPLIED,
    );
  }
  return applyShader(paint, shader);
}

function applyShader(paint: SkPaint, shader: Shader): () => void {
  paint.setColor(OPAQUE_BLACK);
  paint.setShader(shader);
  return () => {
    paint.setShader(null);
    shader.delete();
  };
}

/** Whether every pixel the paint draws is opaque (lets the frame background keep the opaque fast path). */
export function isOpaquePaint(value: PaintT, path: string): boolean {
  if (typeof value === "string") return (parseHexColor(value, path)[3] ?? 0) === 1;
  // An image's pixels are not known here: it may have transparent ones.
  if (isImagePattern(value)) return false;
  if (value.type === "pattern") return isOpaquePattern(value, path);
  return value.stops.every(
    (stop, i) => (parseHexColor(stop.color, `${path}.stops[${i}].color`)[3] ?? 0) === 1,
  );
}

const OPAQUE_BLACK = Float32Array.of(0, 0, 0, 1);
const TRANSPARENT = Float32Array.of(0, 0, 0, 0);
const noop = () => {};

/**
 * The gradient line of CSS `linear-gradient(<angle>)`: through the box centre, in the angle's
 * direction (0 = up, 90 = right), long enough that the corners get the end colours.
 */
export function linearEnds(angle: number, box: PaintBox): [[number, number], [number, number]] {
  const radians = (angle * Math.PI) / 180;
  const dx = Math.sin(radians);
  const dy = -Math.cos(radians);
  const half = (Math.abs(box.width * dx) + Math.abs(box.height * dy)) / 2;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return [
    [cx - dx * half, cy - dy * half],
    [cx + dx * half, cy + dy * half],
  ];
}

/**
 * A radial gradient's centre and radii in the box: a circle of `radius` times the larger side, or
 * (`shape: "ellipse"`) `radius` times each side.
 */
export function radialGeometry(
  gradient: RadialGradientT,
  box: PaintBox,
): { cx: number; cy: number; rx: number; ry: number } {
  const center = gradient.center ?? { x: 0.5, y: 0.5 };
  const cx = box.x + center.x * box.width;
  const cy = box.y + center.y * box.height;
  const radius = gradient.radius ?? 0.5;
  if (gradient.shape === "ellipse") {
    return { cx, cy, rx: Math.max(radius * box.width, 1e-3), ry: Math.max(radius * box.height, 1e-3) };
  }
  const r = Math.max(radius * Math.max(box.width, box.height), 1e-3);
  return { cx, cy, rx: r, ry: r };
}
