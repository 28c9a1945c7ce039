import type { FrameT, Layer } from "../engine/engine-types.ts";
import type { Box } from "./geometry.ts";
import { childLayers } from "./layer-tree.ts";

export interface Selection {
  frame: number;
  /** null: the frame itself. */
  layer: string | null;
}

const RAD = Math.PI / 180;

function turn(x: number, y: number, degrees: number): { x: number; y: number } {
  const a = degrees * RAD;
  return { x: x * Math.cos(a) - y * Math.sin(a), y: x * Math.sin(a) + y * Math.cos(a) };
}

/**
 * A layer's box in frame coordinates, as the engine draws it: group offsets added and group
 * rotations (about each group's centre) composed, so handles sit on nested layers too.
 */
export function absoluteBox(frame: FrameT, id: string): Box | null {
  // `place` maps a point of the current parent's coordinates to frame coordinates.
  const walk = (
    layers: readonly Layer[],
    place: (x: number, y: number) => { x: number; y: number },
    turned: number,
  ): Box | null => {
    for (const l of layers) {
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
      const children = childLayers(l);
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
