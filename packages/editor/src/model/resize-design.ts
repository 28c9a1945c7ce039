import type { FrameT, Layer } from "../engine/engine-types.ts";
import { childLayers, withChildLayers } from "./layer-tree.ts";

/**
 * "Resize a design": a copy of a frame at another size. Every top-level layer keeps its place
 * proportionally (its centre moves with the frame's proportions) and is scaled uniformly by the
 * smaller of the two ratios, so nothing is stretched: sizes, font sizes, corner radii, strokes and
 * shadows scale together; a group's children scale with it. Bindings and every other property are
 * kept. Pure.
 *
 * The copy lands on whole pixels, as a designer would have typed it: positions, sizes, font sizes,
 * corner radii and padding are rounded to integers (a font size to at least 1); the finer lengths
 * (stroke widths, letter and paragraph spacing, shadow offsets, blurs and spreads) to one decimal,
 * so a thin stroke or a small blur does not vanish or double.
 */
export function resizedFrameCopy(frame: FrameT, name: string, width: number, height: number): FrameT {
  const rx = width / frame.width;
  const ry = height / frame.height;
  const s = Math.min(rx, ry);
  const layers = (frame.layers as Layer[]).map((l) => {
    const scaled = scaleLayer(l, s);
    const cx = (l.x + l.width / 2) * rx;
    const cy = (l.y + l.height / 2) * ry;
    return { ...scaled, x: whole(cx - scaled.width / 2), y: whole(cy - scaled.height / 2) } as Layer;
  });
  return { ...structuredClone(frame), name, width, height, layers };
}

function whole(n: number): number {
  return Math.round(n);
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Lengths a designer types as whole pixels. */
const WHOLE_LENGTHS = new Set(["size", "min_size", "max_size", "corner_radius", "padding"]);
/** Font sizes never round down to nothing. */
const FONT_SIZES = new Set(["size", "min_size", "max_size"]);

/** Keys holding lengths in template pixels, at any depth of a layer (font size, radius, blur…). */
const LENGTHS = new Set([
  ...WHOLE_LENGTHS,
  "letter_spacing",
  "paragraph_spacing",
  "blur",
  "spread",
  "radius_px",
]);

function scaleLength(key: string, value: number, s: number): number {
  if (!WHOLE_LENGTHS.has(key)) return round(value * s);
  const v = whole(value * s);
  return FONT_SIZES.has(key) && value > 0 ? Math.max(1, v) : v;
}

function scaleValue(key: string, value: unknown, s: number): unknown {
  if (typeof value === "number" && LENGTHS.has(key)) return scaleLength(key, value, s);
  if (Array.isArray(value)) {
    if (key === "corner_radius") return value.map((v) => (typeof v === "number" ? whole(v * s) : v));
    return value.map((v) => scaleValue("", v, s));
  }
  if (value && typeof value === "object") return scaleObject(value as Record<string, unknown>, s);
  return value;
}

function scaleObject(obj: Record<string, unknown>, s: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === "stroke" && v && typeof v === "object" && !Array.isArray(v)) {
      const stroke = scaleObject(v as Record<string, unknown>, s);
      if (typeof stroke.width === "number") stroke.width = round(stroke.width * s);
      out[k] = stroke;
    } else if (k === "shadows" && Array.isArray(v)) {
      out[k] = v.map((sh) => {
        const o = { ...(sh as Record<string, unknown>) };
        for (const f of ["x", "y", "blur", "spread"])
          if (typeof o[f] === "number") o[f] = round((o[f] as number) * s);
        return o;
      });
    } else out[k] = scaleValue(k, v, s);
  }
  return out;
}

/** A layer scaled by `s` about its own origin (a group's children within it). */
export function scaleLayer(layer: Layer, s: number): Layer {
  const { layers: _children, bind, ...rest } = layer as Layer & { layers?: unknown };
  const scaled = scaleObject(rest as Record<string, unknown>, s) as unknown as Layer;
  scaled.x = whole(layer.x * s);
  scaled.y = whole(layer.y * s);
  scaled.width = whole(layer.width * s);
  scaled.height = whole(layer.height * s);
  if (bind) scaled.bind = { ...bind };
  const children = childLayers(layer);
  return children
    ? withChildLayers(
        { ...scaled, layers: [] } as Layer,
        children.map((c) => scaleLayer(c, s)),
      )
    : scaled;
}
