import type { CanvasKit, Path } from "canvaskit-wasm";
import type { AlphaMaskT, MaskT } from "../document/common.ts";
import type { Layer } from "../document/schema.ts";
import { EngineError } from "./errors.ts";
import { kindOf } from "./painters/registry.ts";

/**
 * Layer masks (`mask` in document/common.ts). The common pipeline clips to `maskOutline` after the
 * layer's rotation and flip and inside its opacity and effect layers, so the shadow of a masked layer
 * follows the masked shape.
 *
 * Coordinates: `circle`, `ellipse` and `rounded` masks are drawn in the layer's own box and turn and
 * mirror with it. A `{ layer }` mask is the outline of a sibling layer (the same frame, or the same
 * group: validation refuses others) exactly where that layer would be drawn, its own rotation and flip
 * included, and stays put when the masked layer turns. The mask layer's outline counts whether it is
 * visible or not (it is usually hidden); its fill, stroke, opacity and own mask play no part.
 */

/** The mask's outline in the masked layer's drawing coordinates; the caller deletes it. */
export function maskOutline(
  ck: CanvasKit,
  layer: Layer,
  mask: Exclude<MaskT, AlphaMaskT>,
  siblings: readonly Layer[],
  path: string,
): Path {
  const { x, y, width: w, height: h } = layer;
  if ("shape" in mask) {
    const builder = new ck.PathBuilder();
    if (mask.shape === "circle") {
      builder.addCircle(x + w / 2, y + h / 2, Math.min(w, h) / 2);
    } else if (mask.shape === "ellipse") {
      builder.addOval(ck.XYWHRect(x, y, w, h));
    } else {
      builder.addRRect(ck.RRectXY(ck.XYWHRect(x, y, w, h), mask.radius, mask.radius));
    }
    return builder.detachAndDelete();
  }
  // Validation refuses these; a document rendered without validation still fails clearly.
  const source = siblings.find((sibling) => sibling.id === mask.layer);
  const outline = source && source !== layer ? kindOf(source).outline?.(ck, source) : undefined;
  if (!source || !outline) {
    throw new EngineError(
      "invalid_mask",
      `${path}.mask.layer`,
      `no layer ${JSON.stringify(mask.layer)} with an outline beside this layer to mask it with`,
    );
  }
  // Parent coordinates -> the masked layer's drawing coordinates: the mask layer's own transform,
  // then the inverse of the masked layer's (already on the canvas).
  const into = localTransform(ck, source);
  const fromLayer = localTransform(ck, layer);
  const back = fromLayer ? ck.Matrix.invert(fromLayer) : null;
  const matrix = into && back ? ck.Matrix.multiply(back, into) : (into ?? back);
  if (!matrix) return outline;
  const builder = new ck.PathBuilder(outline);
  outline.delete();
  builder.transform(matrix);
  return builder.detachAndDelete();
}

/** A layer's rotation and flip about its centre as a 3x3 matrix (as layers.ts applies them), or null. */
export function localTransform(ck: CanvasKit, layer: Layer): number[] | null {
  const rotation = layer.rotation ?? 0;
  const flipX = layer.flip_x === true;
  const flipY = layer.flip_y === true;
  if (rotation === 0 && !flipX && !flipY) return null;
  const cx = layer.x + layer.width / 2;
  const cy = layer.y + layer.height / 2;
  return ck.Matrix.multiply(
    ck.Matrix.rotated((rotation * Math.PI) / 180, cx, cy),
    ck.Matrix.scaled(flipX ? -1 : 1, flipY ? -1 : 1, cx, cy),
  );
}
