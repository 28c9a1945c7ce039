import type { FrameT, Layer } from "../engine/engine-types.ts";
import type { Box } from "./geometry.ts";

export interface Selection {
  frame: number;
  /** null: the frame itself. */
  layer: string | null;
}

/** A layer's box in frame coordinates: group offsets added (group rotation is not composed). */
export function absoluteBox(frame: FrameT, id: string): Box | null {
  const walk = (layers: readonly Layer[], ox: number, oy: number): Box | null => {
    for (const l of layers) {
      if (l.id === id)
        return { x: l.x + ox, y: l.y + oy, width: l.width, height: l.height, rotation: l.rotation ?? 0 };
      if (l.type === "group") {
        const inner = walk(l.layers as Layer[], ox + l.x, oy + l.y);
        if (inner) return inner;
      }
    }
    return null;
  };
  return walk(frame.layers as Layer[], 0, 0);
}

export function layerBox(l: Layer): Box {
  return { x: l.x, y: l.y, width: l.width, height: l.height, rotation: l.rotation ?? 0 };
}
