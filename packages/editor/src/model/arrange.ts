import type { FrameT, Layer } from "../engine/engine-types.ts";
import { type Doc, uniqueId, updateFrame } from "./doc-ops.ts";
import { type Box, extent } from "./geometry.ts";
import { childLayers, withChildLayers } from "./layer-tree.ts";
import { absoluteBox, layerBox, parentRotation, toParentAxes } from "./selection.ts";

/**
 * Arrangement of several layers at once (align, distribute, group, ungroup, z-order, moving,
 * scaling and turning a multi-selection). Pure: each returns a new document.
 */

export interface Extent {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type AlignEdge = "left" | "center" | "right" | "top" | "middle" | "bottom";
export type Delta = { dx: number; dy: number };

/** Union of extents (null for none). */
export function unionExtent(extents: readonly Extent[]): Extent | null {
  if (extents.length === 0) return null;
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const e of extents) {
    left = Math.min(left, e.left);
    top = Math.min(top, e.top);
    right = Math.max(right, e.left + e.width);
    bottom = Math.max(bottom, e.top + e.height);
  }
  return { left, top, width: right - left, height: bottom - top };
}

/** How far each item moves so its edge (or centre) lines up with the target's. */
export function alignDeltas(
  items: readonly { id: string; ext: Extent }[],
  edge: AlignEdge,
  target: Extent,
): Map<string, Delta> {
  const out = new Map<string, Delta>();
  for (const { id, ext } of items) {
    let dx = 0;
    let dy = 0;
    if (edge === "left") dx = target.left - ext.left;
    else if (edge === "center") dx = target.left + target.width / 2 - (ext.left + ext.width / 2);
    else if (edge === "right") dx = target.left + target.width - (ext.left + ext.width);
    else if (edge === "top") dy = target.top - ext.top;
    else if (edge === "middle") dy = target.top + target.height / 2 - (ext.top + ext.height / 2);
    else dy = target.top + target.height - (ext.top + ext.height);
    // Whole pixels: a layer on whole pixels stays on them (a centre may then be half a pixel off).
    out.set(id, { dx: Math.round(dx), dy: Math.round(dy) });
  }
  return out;
}

/**
 * Equal gaps between the items along an axis, in the order of their centres. Within the selection
 * the outermost items stay put; within a frame (`inFrame`) the gaps include both margins. Each move
 * is a whole number of pixels.
 */
export function distributeDeltas(
  items: readonly { id: string; ext: Extent }[],
  axis: "x" | "y",
  target: Extent,
  inFrame: boolean,
): Map<string, Delta> {
  const out = new Map<string, Delta>();
  const start = (e: Extent) => (axis === "x" ? e.left : e.top);
  const size = (e: Extent) => (axis === "x" ? e.width : e.height);
  const sorted = items
    .slice()
    .sort((a, b) => start(a.ext) + size(a.ext) / 2 - (start(b.ext) + size(b.ext) / 2));
  if (sorted.length < (inFrame ? 1 : 3)) return out;
  const total = sorted.reduce((n, i) => n + size(i.ext), 0);
  const span = inFrame ? size(target) : size(unionExtent(sorted.map((i) => i.ext)) as Extent);
  const origin = inFrame ? start(target) : start((sorted[0] as { ext: Extent }).ext);
  const gap = (span - total) / (inFrame ? sorted.length + 1 : sorted.length - 1);
  let at = origin + (inFrame ? gap : 0);
  for (const { id, ext } of sorted) {
    // Whole pixels: equal gaps to the pixel (they may differ by one), not x = 449.608.
    const d = Math.round(at - start(ext));
    out.set(id, axis === "x" ? { dx: d, dy: 0 } : { dx: 0, dy: d });
    at += size(ext) + gap;
  }
  return out;
}

/** Removes floating-point dust (0.30000000000000004) without rounding real half pixels. */
function tidy(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Moves layers by frame-space deltas; a layer inside a (turned) group moves in its group's axes. */
export function translateLayers(doc: Doc, frameIndex: number, deltas: ReadonlyMap<string, Delta>): Doc {
  const frame = doc.frames[frameIndex];
  if (!frame || deltas.size === 0) return doc;
  const local = new Map<string, { x: number; y: number }>();
  for (const [id, d] of deltas) local.set(id, toParentAxes(d.dx, d.dy, parentRotation(frame, id)));
  const walk = (layers: readonly Layer[]): Layer[] =>
    layers.map((l) => {
      const d = local.get(l.id);
      const moved = d ? ({ ...l, x: tidy(l.x + d.x), y: tidy(l.y + d.y) } as Layer) : l;
      const children = childLayers(moved);
      return children && !d ? withChildLayers(moved, walk(children)) : moved;
    });
  return updateFrame(doc, frameIndex, (f) => ({ ...f, layers: walk(f.layers as Layer[]) }));
}

/** The layers' extents in frame coordinates. */
export function frameExtents(frame: FrameT, ids: readonly string[]): { id: string; ext: Extent }[] {
  const out: { id: string; ext: Extent }[] = [];
  for (const id of ids) {
    const box = absoluteBox(frame, id);
    if (box) out.push({ id, ext: extent(box) });
  }
  return out;
}

/** Aligns to the selection's bounds, or to the frame when one layer (or `toFrame`) is given. */
export function alignLayers(
  doc: Doc,
  frameIndex: number,
  ids: readonly string[],
  edge: AlignEdge,
  toFrame: boolean,
): Doc {
  const frame = doc.frames[frameIndex];
  if (!frame) return doc;
  const items = frameExtents(frame, ids);
  const frameExtent = { left: 0, top: 0, width: frame.width, height: frame.height };
  const target = toFrame || items.length < 2 ? frameExtent : unionExtent(items.map((i) => i.ext));
  if (!target) return doc;
  return translateLayers(doc, frameIndex, alignDeltas(items, edge, target));
}

export function distributeLayers(
  doc: Doc,
  frameIndex: number,
  ids: readonly string[],
  axis: "x" | "y",
  toFrame: boolean,
): Doc {
  const frame = doc.frames[frameIndex];
  if (!frame) return doc;
  const items = frameExtents(frame, ids);
  const inFrame = toFrame || items.length < 3;
  const target = { left: 0, top: 0, width: frame.width, height: frame.height };
  return translateLayers(doc, frameIndex, distributeDeltas(items, axis, target, inFrame));
}

/** The list (top level or a group's `layers`) that holds every one of the ids, or null. */
function commonParent(layers: readonly Layer[], ids: ReadonlySet<string>): readonly Layer[] | null {
  if (ids.size > 0 && [...ids].every((id) => layers.some((l) => l.id === id))) return layers;
  for (const l of layers) {
    const children = childLayers(l);
    const found = children ? commonParent(children, ids) : null;
    if (found) return found;
  }
  return null;
}

/** Replaces one parent list (found by identity) with another. */
function replaceList(layers: Layer[], target: readonly Layer[], next: Layer[]): Layer[] {
  if (layers === target) return next;
  return layers.map((l) => {
    const children = childLayers(l);
    return children ? withChildLayers(l, replaceList(children as Layer[], target, next)) : l;
  });
}

function editParentList(
  doc: Doc,
  frameIndex: number,
  ids: readonly string[],
  fn: (list: readonly Layer[]) => Layer[] | null,
): Doc | null {
  const frame = doc.frames[frameIndex];
  if (!frame) return null;
  const list = commonParent(frame.layers as Layer[], new Set(ids));
  if (!list) return null;
  const next = fn(list);
  if (!next) return null;
  return updateFrame(doc, frameIndex, (f) => ({
    ...f,
    layers: replaceList(f.layers as Layer[], list, next),
  }));
}

/**
 * Wraps sibling layers in a new group sized to their bounds, placed where the topmost of them was;
 * children keep their order and their place on the page. Null when the layers are not siblings.
 */
export function groupLayers(
  doc: Doc,
  frameIndex: number,
  ids: readonly string[],
): { doc: Doc; id: string } | null {
  if (ids.length === 0) return null;
  const id = uniqueId(doc, "group");
  const wanted = new Set(ids);
  const next = editParentList(doc, frameIndex, ids, (list) => {
    const members = list.filter((l) => wanted.has(l.id));
    const bounds = unionExtent(members.map((l) => extent(layerBox(l))));
    if (!bounds) return null;
    const left = Math.floor(bounds.left);
    const top = Math.floor(bounds.top);
    const group = {
      id,
      type: "group",
      x: left,
      y: top,
      width: Math.ceil(bounds.left + bounds.width) - left,
      height: Math.ceil(bounds.top + bounds.height) - top,
      layers: members.map((l) => ({ ...l, x: tidy(l.x - left), y: tidy(l.y - top) }) as Layer),
    } as Layer;
    const last = Math.max(...members.map((m) => list.indexOf(m)));
    const out: Layer[] = [];
    list.forEach((l, i) => {
      if (!wanted.has(l.id)) out.push(l);
      if (i === last) out.push(group);
    });
    return out;
  });
  return next ? { doc: next, id } : null;
}

const RAD = Math.PI / 180;

function normaliseAngle(deg: number): number {
  const a = ((((deg + 180) % 360) + 360) % 360) - 180;
  return tidy(a === -180 ? 180 : a);
}

/**
 * Replaces a group by its children at the group's place in the list, keeping where each is drawn:
 * the group's offset and rotation are composed into each child, its opacity multiplied in, and a
 * hidden group's children stay hidden. Returns the children's ids.
 */
export function ungroupLayer(
  doc: Doc,
  frameIndex: number,
  groupId: string,
): { doc: Doc; ids: string[] } | null {
  let ids: string[] = [];
  const next = editParentList(doc, frameIndex, [groupId], (list) => {
    const group = list.find((l) => l.id === groupId);
    const children = group ? childLayers(group) : null;
    if (!group || !children) return null;
    const turn = group.rotation ?? 0;
    const opacity = group.opacity ?? 1;
    const a = turn * RAD;
    const freed = children.map((c) => {
      const cx = c.x + c.width / 2 - group.width / 2;
      const cy = c.y + c.height / 2 - group.height / 2;
      const px = group.x + group.width / 2 + cx * Math.cos(a) - cy * Math.sin(a);
      const py = group.y + group.height / 2 + cx * Math.sin(a) + cy * Math.cos(a);
      const out = { ...c, x: tidy(px - c.width / 2), y: tidy(py - c.height / 2) } as Layer;
      if (turn !== 0) out.rotation = normaliseAngle((c.rotation ?? 0) + turn);
      if (opacity !== 1) out.opacity = tidy((c.opacity ?? 1) * opacity);
      if (group.visible === false) out.visible = false;
      return out;
    });
    ids = freed.map((c) => c.id);
    const at = list.indexOf(group);
    return [...list.slice(0, at), ...freed, ...list.slice(at + 1)];
  });
  return next ? { doc: next, ids } : null;
}

export type ZOrder = "forward" | "backward" | "front" | "back";

/** Z-order of layers within their parent list (later is drawn on top). */
export function reorderList(list: readonly Layer[], ids: ReadonlySet<string>, op: ZOrder): Layer[] {
  const picked = list.filter((l) => ids.has(l.id));
  const rest = list.filter((l) => !ids.has(l.id));
  if (op === "front") return [...rest, ...picked];
  if (op === "back") return [...picked, ...rest];
  const out = list.slice();
  if (op === "forward") {
    for (let i = out.length - 2; i >= 0; i--) {
      const a = out[i] as Layer;
      const b = out[i + 1] as Layer;
      if (ids.has(a.id) && !ids.has(b.id)) [out[i], out[i + 1]] = [b, a];
    }
  } else {
    for (let i = 1; i < out.length; i++) {
      const a = out[i - 1] as Layer;
      const b = out[i] as Layer;
      if (ids.has(b.id) && !ids.has(a.id)) [out[i - 1], out[i]] = [b, a];
    }
  }
  return out;
}

/** Z-order of the selected layers, each within its own parent list. */
export function reorderLayers(doc: Doc, frameIndex: number, ids: readonly string[], op: ZOrder): Doc {
  const set = new Set(ids);
  const walk = (layers: readonly Layer[]): Layer[] => {
    const here = layers.some((l) => set.has(l.id)) ? reorderList(layers, set, op) : layers.slice();
    return here.map((l) => {
      const children = childLayers(l);
      return children ? withChildLayers(l, walk(children)) : l;
    });
  };
  return updateFrame(doc, frameIndex, (f) => ({ ...f, layers: walk(f.layers as Layer[]) }));
}

/** Moves a layer to position `to` of its parent list (layers panel drag and drop, in groups too). */
export function placeInParent(doc: Doc, frameIndex: number, id: string, to: number): Doc {
  return (
    editParentList(doc, frameIndex, [id], (list) => {
      const layers = list.slice();
      const from = layers.findIndex((l) => l.id === id);
      const [taken] = layers.splice(from, 1);
      if (taken) layers.splice(Math.max(0, Math.min(layers.length, to)), 0, taken);
      return layers;
    }) ?? doc
  );
}

/**
 * Scales sibling layers from the selection's start bounds to new bounds: positions and sizes
 * follow the bounds (a multi-selection's resize handles). `starts` are the layers' boxes at the
 * start of the gesture.
 */
export function scaleBoxes(starts: ReadonlyMap<string, Box>, from: Extent, to: Extent): Map<string, Box> {
  const sx = from.width > 0 ? to.width / from.width : 1;
  const sy = from.height > 0 ? to.height / from.height : 1;
  const out = new Map<string, Box>();
  for (const [id, b] of starts) {
    const width = Math.max(1, Math.round(b.width * sx));
    const height = Math.max(1, Math.round(b.height * sy));
    const cx = to.left + (b.x + b.width / 2 - from.left) * sx;
    const cy = to.top + (b.y + b.height / 2 - from.top) * sy;
    out.set(id, { ...b, x: Math.round(cx - width / 2), y: Math.round(cy - height / 2), width, height });
  }
  return out;
}

/** Turns boxes together about a centre by `degrees` (a multi-selection's rotation handle). */
export function rotateBoxes(
  starts: ReadonlyMap<string, Box>,
  centre: { x: number; y: number },
  degrees: number,
): Map<string, Box> {
  const a = degrees * RAD;
  const out = new Map<string, Box>();
  for (const [id, b] of starts) {
    const dx = b.x + b.width / 2 - centre.x;
    const dy = b.y + b.height / 2 - centre.y;
    const cx = centre.x + dx * Math.cos(a) - dy * Math.sin(a);
    const cy = centre.y + dx * Math.sin(a) + dy * Math.cos(a);
    out.set(id, {
      ...b,
      x: tidy(cx - b.width / 2),
      y: tidy(cy - b.height / 2),
      rotation: normaliseAngle(b.rotation + degrees),
    });
  }
  return out;
}

/** Applies boxes to layers (any depth), keeping `rotation` absent when it stays 0. */
export function applyBoxes(doc: Doc, frameIndex: number, boxes: ReadonlyMap<string, Box>): Doc {
  // Layers (and groups) the boxes do not change stay the same objects, and so does the document when
  // nothing changes: the canvas redraws only what changed (a drag step that moves nothing, none).
  const walk = (layers: readonly Layer[]): readonly Layer[] => {
    let changed = false;
    const out = layers.map((l) => {
      const b = boxes.get(l.id);
      let next = l;
      if (b && !sameBox(l, b)) {
        next = {
          ...l,
          x: b.x,
          y: b.y,
          width: b.width,
          height: b.height,
          ...(b.rotation !== 0 || l.rotation !== undefined ? { rotation: b.rotation } : {}),
        } as Layer;
      }
      const children = childLayers(next);
      if (children) {
        const inner = walk(children);
        if (inner !== children) next = withChildLayers(next, inner);
      }
      if (next !== l) changed = true;
      return next;
    });
    return changed ? out : layers;
  };
  const frame = doc.frames[frameIndex];
  if (!frame) return doc;
  const layers = walk(frame.layers as Layer[]);
  return layers === frame.layers ? doc : updateFrame(doc, frameIndex, (f) => ({ ...f, layers: [...layers] }));
}

function sameBox(l: Layer, b: Box): boolean {
  return (
    l.x === b.x &&
    l.y === b.y &&
    l.width === b.width &&
    l.height === b.height &&
    (l.rotation ?? 0) === b.rotation
  );
}

/** Top-level layers whose extent touches a marquee (frame coordinates), as Figma selects. */
export function layersInMarquee(
  layers: readonly Layer[],
  marquee: Extent,
  skip: (l: Layer) => boolean,
): string[] {
  return layers
    .filter((l) => !skip(l))
    .filter((l) => {
      const e = extent(layerBox(l));
      return (
        e.left <= marquee.left + marquee.width &&
        e.top <= marquee.top + marquee.height &&
        e.left + e.width >= marquee.left &&
        e.top + e.height >= marquee.top
      );
    })
    .map((l) => l.id);
}

/** The union box of a multi-selection (unrotated), in frame coordinates. */
export function selectionBounds(frame: FrameT, ids: readonly string[]): Box | null {
  const u = unionExtent(ids.map((id) => absoluteBox(frame, id)).flatMap((b) => (b ? [extent(b)] : [])));
  return u ? { x: u.left, y: u.top, width: u.width, height: u.height, rotation: 0 } : null;
}
