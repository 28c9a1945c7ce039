import type { ConstraintsT, FrameT, Layer } from "../engine/engine-types.ts";
import { childLayers, withChildLayers } from "./layer-tree.ts";

type Horizontal = NonNullable<ConstraintsT["horizontal"]>;
type Vertical = NonNullable<ConstraintsT["vertical"]>;
/** One axis of a constraint, whichever its direction: pinned to the start, the end, both, the centre, or in proportion. */
type Pin = "start" | "end" | "both" | "center" | "scale";

const H_PIN: Record<Horizontal, Pin> = {
  left: "start",
  right: "end",
  left_right: "both",
  center: "center",
  scale: "scale",
};
const V_PIN: Record<Vertical, Pin> = {
  top: "start",
  bottom: "end",
  top_bottom: "both",
  center: "center",
  scale: "scale",
};

/** The smallest font size a copy makes on its own; a smaller one is raised to it, with a note. */
export const MIN_READABLE_FONT = 12;

/**
 * The pin a layer gets on one axis when it names none, from where it sits on that axis: a layer
 * reaching both edges (a background, a band) stretches with the frame, one touching one edge stays
 * on it, one centred within a tenth of the frame stays centred, any other keeps its distance to the
 * nearer edge.
 */
export function inferredPin(start: number, size: number, extent: number): Pin {
  const slack = extent * 0.02;
  const atStart = start <= slack;
  const atEnd = start + size >= extent - slack;
  if (atStart && atEnd) return "both";
  if (atStart) return "start";
  if (atEnd) return "end";
  const centre = start + size / 2;
  if (Math.abs(centre - extent / 2) <= extent * 0.1) return "center";
  return centre < extent / 2 ? "start" : "end";
}

/** The constraints a layer has: its own, or those inferred from its place in a frame of that size. */
export function layerConstraints(layer: Layer, width: number, height: number): Required<ConstraintsT> {
  const own = layer.constraints ?? {};
  const fromPin = <K extends string>(table: Record<K, Pin>, pin: Pin): K =>
    (Object.keys(table) as K[]).find((k) => table[k] === pin) as K;
  return {
    horizontal: own.horizontal ?? fromPin(H_PIN, inferredPin(layer.x, layer.width, width)),
    vertical: own.vertical ?? fromPin(V_PIN, inferredPin(layer.y, layer.height, height)),
  };
}

/**
 * One axis of a layer in the copy: `s` scales its content (the smaller frame ratio, so nothing is
 * stretched and nothing inside the frame leaves it), `r` is that axis's own ratio. The edges are
 * rounded, not the size, so a layer that touched the frame's edge still does.
 */
function placeOnAxis(
  pin: Pin,
  start: number,
  size: number,
  extent: number,
  next: number,
  s: number,
  r: number,
) {
  const free = next - extent * s;
  let a: number;
  let b: number;
  if (pin === "scale") [a, b] = [start * r, (start + size) * r];
  else if (pin === "both") [a, b] = [start * s, next - (extent - start - size) * s];
  else {
    const shift = pin === "start" ? 0 : pin === "end" ? free : free / 2;
    [a, b] = [start * s + shift, (start + size) * s + shift];
  }
  const lo = whole(a);
  return { start: lo, size: Math.max(0, whole(b) - lo) };
}

/** What a copy to another size changed that a designer should look at. */
export interface ResizeNote {
  layer: string;
  message: string;
}

/**
 * "Copy this frame to a new size" (smart resize). Every top-level layer keeps its constraints, its
 * own or inferred from where it sits (see `inferredPin`): pinned to an edge it keeps its margin to
 * that edge, centred it stays centred, pinned to both it stretches, `scale` places and sizes it in
 * proportion; a group's children are placed the same way within the group. Content (font sizes,
 * radii, strokes, shadows) is scaled uniformly by the smaller of the two ratios, so on the tighter
 * axis the copy is the design scaled and on the other the layers spread to their edges; a stack that
 * stretches lays its children out again.
 * Bindings and every other property are kept. Pure.
 *
 * The copy lands on whole pixels, as a designer would have typed it: positions, sizes, font sizes,
 * corner radii and padding are rounded to integers; a font size never goes below
 * `MIN_READABLE_FONT` unless it was already smaller (the raise is listed in `notes`); the finer
 * lengths (stroke widths, letter and paragraph spacing, shadow offsets, blurs and spreads) to one
 * decimal, so a thin stroke or a small blur does not vanish or double.
 */
export function resizedFrameCopy(
  frame: FrameT,
  name: string,
  width: number,
  height: number,
  notes: ResizeNote[] = [],
): FrameT {
  const s = Math.min(width / frame.width, height / frame.height);
  const layers = placeLayers(frame.layers as Layer[], frame, { width, height }, s, notes);
  return { ...structuredClone(frame), name, width, height, layers };
}

type Size = { width: number; height: number };

/**
 * Layers of a box (a frame, or a group, whose children sit relative to it) that goes from `from` to
 * `to`, their content scaled by `s`. A group's children are placed again by their own constraints
 * within the group's new box (corner ornaments of a full-frame group stay in the corners); a
 * stack's are scaled, the stack laying them out again.
 */
function placeLayers(
  layers: readonly Layer[],
  from: Size,
  to: Size,
  s: number,
  notes: ResizeNote[],
): Layer[] {
  const rx = to.width / from.width;
  const ry = to.height / from.height;
  return layers.map((l) => {
    const c = layerConstraints(l, from.width, from.height);
    const scaled = scaleLayer(l, s, notes);
    const h = placeOnAxis(H_PIN[c.horizontal], l.x, l.width, from.width, to.width, s, rx);
    const v = placeOnAxis(V_PIN[c.vertical], l.y, l.height, from.height, to.height, s, ry);
    const placed = { ...scaled, x: h.start, y: v.start, width: h.size, height: v.size } as Layer;
    const children = childLayers(l);
    if (!children || l.type === "stack" || l.width <= 0 || l.height <= 0) return placed;
    return withChildLayers(placed, placeLayers(children, l, { width: h.size, height: v.size }, s, notes));
  });
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

function scaleLength(key: string, value: number, s: number, scope: Scope): number {
  if (!WHOLE_LENGTHS.has(key)) return round(value * s);
  const v = whole(value * s);
  if (!FONT_SIZES.has(key) || value <= 0) return v;
  if (scope.inFont && value >= MIN_READABLE_FONT && v < MIN_READABLE_FONT) {
    scope.notes.push({
      layer: scope.layer,
      message: `font size ${v} px raised to ${MIN_READABLE_FONT} px; check that the text still fits`,
    });
    return MIN_READABLE_FONT;
  }
  return Math.max(1, v);
}

/** Where a value being scaled sits: its layer, whether inside a font, and the notes to add to. */
interface Scope {
  layer: string;
  inFont: boolean;
  notes: ResizeNote[];
}

function scaleValue(key: string, value: unknown, s: number, scope: Scope): unknown {
  if (typeof value === "number" && LENGTHS.has(key)) return scaleLength(key, value, s, scope);
  if (Array.isArray(value)) {
    if (key === "corner_radius") return value.map((v) => (typeof v === "number" ? whole(v * s) : v));
    return value.map((v) => scaleValue("", v, s, scope));
  }
  if (value && typeof value === "object")
    return scaleObject(
      value as Record<string, unknown>,
      s,
      key === "font" ? { ...scope, inFont: true } : scope,
    );
  return value;
}

function scaleObject(obj: Record<string, unknown>, s: number, scope: Scope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === "stroke" && v && typeof v === "object" && !Array.isArray(v)) {
      const stroke = scaleObject(v as Record<string, unknown>, s, scope);
      if (typeof stroke.width === "number") stroke.width = round(stroke.width * s);
      out[k] = stroke;
    } else if (k === "shadows" && Array.isArray(v)) {
      out[k] = v.map((sh) => {
        const o = { ...(sh as Record<string, unknown>) };
        for (const f of ["x", "y", "blur", "spread"])
          if (typeof o[f] === "number") o[f] = round((o[f] as number) * s);
        return o;
      });
    } else out[k] = scaleValue(k, v, s, scope);
  }
  return out;
}

/** A layer scaled by `s` about its own origin (a group's children within it). */
export function scaleLayer(layer: Layer, s: number, notes: ResizeNote[] = []): Layer {
  const { layers: _children, bind, constraints, ...rest } = layer as Layer & { layers?: unknown };
  const scope = { layer: layer.name ?? layer.id, inFont: false, notes };
  const scaled = scaleObject(rest as Record<string, unknown>, s, scope) as unknown as Layer;
  if (constraints) scaled.constraints = { ...constraints };
  scaled.x = whole(layer.x * s);
  scaled.y = whole(layer.y * s);
  scaled.width = whole(layer.width * s);
  scaled.height = whole(layer.height * s);
  if (bind) scaled.bind = { ...bind };
  const children = childLayers(layer);
  return children
    ? withChildLayers(
        { ...scaled, layers: [] } as Layer,
        children.map((c) => scaleLayer(c, s, notes)),
      )
    : scaled;
}
