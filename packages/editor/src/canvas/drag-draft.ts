import type { FrameT, Layer, TemplateDocumentT } from "../engine/engine-types.ts";
import { eachLayer } from "../model/layer-tree.ts";

/**
 * A frame drawn in three parts while a pointer gesture moves some of its layers: the layers below the
 * moved ones (with the frame's background), the moved ones, and the layers above them, each by the
 * engine. The parts that do not move are drawn once per gesture and kept; each pointer move draws only
 * the moved layers, and the browser stacks the three canvases. Source-over compositing is associative,
 * so the stack shows the frame's drawing (up to 8-bit rounding where translucent pixels overlap);
 * the release draws the whole frame once, the API's exact pixels.
 *
 * `lo`..`hi`: the first and last top-level layers the gesture changed (a layer inside a group changes
 * its top-level group; unchanged layers between them are drawn with the moved part).
 */
export interface DraftSplit {
  lo: number;
  hi: number;
}

/**
 * How the frame `next` (a gesture's preview) can be drawn in parts, given the frame whose whole
 * drawing is on the canvas: null when it must be drawn whole. It must when anything but top-level
 * layers changed (size, background, the layers' order or count), or when the frame cannot be drawn in
 * parts at all (`splitAt`).
 */
export function draftSplit(drawn: FrameT, next: FrameT): DraftSplit | null {
  if (drawn === next) return null;
  if (drawn.width !== next.width || drawn.height !== next.height) return null;
  if (drawn.background !== next.background || drawn.bind !== next.bind) return null;
  const before = drawn.layers as Layer[];
  const after = next.layers as Layer[];
  if (before.length !== after.length) return null;
  let lo = -1;
  let hi = -1;
  for (let i = 0; i < after.length; i++) {
    const a = before[i] as Layer;
    const b = after[i] as Layer;
    if (a === b) continue;
    if (a.id !== b.id) return null;
    if (lo < 0) lo = i;
    hi = i;
  }
  if (lo < 0) return null;
  return splitAt(next, lo, hi);
}

/**
 * The split of `frame` that moves the layers `ids` (at any depth: a layer inside a group moves its
 * top-level group), before any of them moved: what a gesture on them will draw in parts, so the
 * parts that do not move can be drawn as soon as the gesture may start. Null: drawn whole.
 */
export function splitFor(frame: FrameT, ids: readonly string[]): DraftSplit | null {
  const layers = frame.layers as Layer[];
  let lo = -1;
  let hi = -1;
  for (let i = 0; i < layers.length; i++) {
    const top = layers[i] as Layer;
    let holds = false;
    for (const l of eachLayer([top])) if (ids.includes(l.id)) holds = true;
    if (!holds) continue;
    if (lo < 0) lo = i;
    hi = i;
  }
  return lo < 0 ? null : splitAt(frame, lo, hi);
}

/**
 * Top-level layers `lo`..`hi` of `frame` as the moved part, or null when the frame must be drawn
 * whole: an animated frame, or a layer whose pixels depend on other layers' pixels (a blend mode
 * other than normal at or above the moved layers blends with what is under it; a mask naming another
 * layer).
 */
function splitAt(frame: FrameT, lo: number, hi: number): DraftSplit | null {
  if (frame.duration !== undefined) return null;
  const layers = frame.layers as Layer[];
  for (const l of eachLayer(layers)) {
    if (l.mask !== undefined && "layer" in l.mask) return null;
  }
  for (const l of eachLayer(layers.slice(lo))) {
    if (l.blend_mode !== undefined && l.blend_mode !== "normal") return null;
  }
  return { lo, hi };
}

const TRANSPARENT = "#00000000";

/**
 * The document with one frame holding only some of its top-level layers: the frame's background for
 * the bottom part, transparent for the parts drawn over it.
 */
export function partDocument(
  doc: TemplateDocumentT,
  frameName: string,
  layers: readonly Layer[],
  bottom: boolean,
): TemplateDocumentT {
  return {
    ...doc,
    frames: doc.frames.map((f) => {
      if (f.name !== frameName) return f;
      if (bottom) return { ...f, layers: [...layers] };
      const { bind, ...rest } = f;
      const unbound = bind && "background" in bind ? withoutBackground(bind) : bind;
      return {
        ...rest,
        ...(unbound ? { bind: unbound } : {}),
        background: TRANSPARENT,
        layers: [...layers],
      };
    }),
  } as TemplateDocumentT;
}

function withoutBackground(bind: NonNullable<FrameT["bind"]>): FrameT["bind"] | undefined {
  const { background: _background, ...rest } = bind as Record<string, unknown>;
  return Object.keys(rest).length > 0 ? (rest as FrameT["bind"]) : undefined;
}
