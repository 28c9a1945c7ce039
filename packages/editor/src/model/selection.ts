import type { FrameT, Layer } from "../engine/engine-types.ts";
import type { Box } from "./geometry.ts";
import { childLayers } from "./layer-tree.ts";

export interface Selection {
  frame: number;
  /** The primary (last picked) layer, which the properties panel shows; null: the frame itself. */
  layer: string | null;
  /** Every selected layer of the frame when more than one is (`layer` is one of them). */
  layers?: readonly string[];
}

/** The selected layer ids (none when the frame itself is selected). */
export function selectedIds(selection: Selection | null | undefined): string[] {
  if (!selection) return [];
  if (selection.layers && selection.layers.length > 0) return [...selection.layers];
  return selection.layer ? [selection.layer] : [];
}

/** A selection of these layers of a frame; the last one is the primary. */
export function selectLayers(frame: number, ids: readonly string[]): Selection {
  const unique = [...new Set(ids)];
  return unique.length > 1
    ? { frame, layer: unique.at(-1) ?? null, layers: unique }
    : { frame, layer: unique[0] ?? null };
}

/** Adds a layer to the selection, or takes it out when it is in (Shift/Ctrl-click). */
export function toggleInSelection(selection: Selection | null, frame: number, id: string): Selection {
  const current = selection?.frame === frame ? selectedIds(selection) : [];
  return selectLayers(frame, current.includes(id) ? current.filter((x) => x !== id) : [...current, id]);
}

const RAD = Math.PI / 180;

function turn(x: number, y: number, degrees: number): { x: number; y: number } {
  const a = degrees * RAD;
  return { x: x * Math.cos(a) - y * Math.sin(a), y: x * Math.sin(a) + y * Math.cos(a) };
}

type LaidOut = Readonly<Record<string, { x: number; y: number; width: number; height: number }>>;

/** The boxes layout gave layers in the last drawing of each frame object (stack children, hugging boxes). */
const laidOutBoxes = new WeakMap<FrameT, LaidOut>();

/** Remembers where the engine's layout put the layers of this frame (its render's `boxes`). */
export function rememberLaidOutBoxes(frame: FrameT, boxes: LaidOut | undefined): void {
  if (boxes === undefined || Object.keys(boxes).length === 0) laidOutBoxes.delete(frame);
  else laidOutBoxes.set(frame, boxes);
}

/** The layer with the box it was drawn in, when layout moved or sized it. */
function asDrawn(frame: FrameT, layer: Layer): Layer {
  const box = laidOutBoxes.get(frame)?.[layer.id];
  return box === undefined ? layer : ({ ...layer, ...box } as Layer);
}

/**
 * A layer's box in frame coordinates, as the engine draws it: group offsets added and group
 * rotations (about each group's centre) composed, so handles sit on nested layers too; where layout
 * placed a layer (a stack's child, a box that hugs), the box it was drawn in.
 */
export function absoluteBox(frame: FrameT, id: string): Box | null {
  // `place` maps a point of the current parent's coordinates to frame coordinates.
  const walk = (
    layers: readonly Layer[],
    place: (x: number, y: number) => { x: number; y: number },
    turned: number,
  ): Box | null => {
    for (const designed of layers) {
      const l = asDrawn(frame, designed);
      if (l.id === id) {
        const c = place(l.x + l.width / 2, l.y + l.height / 2);
        return {
          x: c.x - l.width / 2,
          y: c.y - l.height / 2,
          width: l.width,
          height: l.height,
          rotation: turned + (l.rotation ?? 0),
        };
      }
      const children = childLayers(designed);
      if (children) {
        const g = l;
        const rotation = g.rotation ?? 0;
        const inner = walk(
          children,
          (x, y) => {
            const r = turn(x - g.width / 2, y - g.height / 2, rotation);
            return place(g.x + g.width / 2 + r.x, g.y + g.height / 2 + r.y);
          },
          turned + rotation,
        );
        if (inner) return inner;
      }
    }
    return null;
  };
  return walk(frame.layers as Layer[], (x, y) => ({ x, y }), 0);
}

/** Sum of the rotations of the groups around a layer (0 for a top-level layer). */
export function parentRotation(frame: FrameT, id: string): number {
  const walk = (layers: readonly Layer[], turned: number): number | null => {
    for (const l of layers) {
      if (l.id === id) return turned;
      const children = childLayers(l);
      if (children) {
        const inner = walk(children, turned + (l.rotation ?? 0));
        if (inner !== null) return inner;
      }
    }
    return null;
  };
  return walk(frame.layers as Layer[], 0) ?? 0;
}

/** A pointer movement in frame coordinates, expressed in the axes of a layer's parent group. */
export function toParentAxes(dx: number, dy: number, parentTurn: number): { x: number; y: number } {
  return turn(dx, dy, -parentTurn);
}

export function layerBox(l: Layer): Box {
  return { x: l.x, y: l.y, width: l.width, height: l.height, rotation: l.rotation ?? 0 };
}

/** The list holding a layer (its frame's layers or its group's) and the group, if any. */
export function parentOf(
  frame: FrameT,
  id: string,
): { group: Layer | null; siblings: readonly Layer[] } | null {
  const walk = (layers: readonly Layer[], group: Layer | null): ReturnType<typeof parentOf> => {
    for (const l of layers) {
      if (l.id === id) return { group, siblings: layers };
      const children = childLayers(l);
      if (children) {
        const inner = walk(children, l);
        if (inner) return inner;
      }
    }
    return null;
  };
  return walk(frame.layers as Layer[], null);
}
