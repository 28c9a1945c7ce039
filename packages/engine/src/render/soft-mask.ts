import type { CanvasKit } from "canvaskit-wasm";
import type { AlphaMaskT } from "../document/common.ts";
import type { Layer } from "../document/schema.ts";
import type { PaintContext } from "./context.ts";
import { EngineError } from "./errors.ts";
import { localTransform } from "./mask.ts";
import { applyPaint } from "./paint.ts";
import { kindOf } from "./painters/registry.ts";

/**
 * Soft masks (`{ type: "alpha" }` in document/common.ts): the layer's own drawing goes into an
 * offscreen layer, then the mask source is drawn over it with `dst-in`, which keeps each pixel in
 * proportion to the source's alpha there. A gradient is laid over the layer's box in its drawing
 * coordinates (it turns and mirrors with the layer); a source layer is drawn where it is in the
 * parent's coordinates (the masked layer's rotation and flip undone), by its kind's painter alone:
 * its opacity, effects and mask play no part. Pixel shadows are made from the masked pixels, so a
 * faded photo's shadow fades with it.
 */
export function drawSoftMasked(
  ctx: PaintContext,
  layer: Layer,
  mask: AlphaMaskT,
  path: string,
  siblings: readonly Layer[],
  draw: () => void,
): void {
  const { ck, canvas } = ctx;
  const source = "layer" in mask ? sourceLayer(layer, mask.layer, path, siblings) : null;
  canvas.saveLayer();
  // Kinds may leave the canvas moved (a group translates to its children's coordinates).
  const drawn = canvas.save();
  draw();
  canvas.restoreToCount(drawn);
  const keep = new ck.Paint();
  keep.setBlendMode(ck.BlendMode.DstIn);
  if ("gradient" in mask) {
    keep.setAntiAlias(true);
    const release = applyPaint(ctx, keep, mask.gradient, `${path}.mask.gradient`, layer);
    canvas.drawPaint(keep);
    release();
  } else if (source !== null) {
    canvas.saveLayer(keep);
    canvas.concat(parentToLayer(ck, layer, source.layer));
    const outerMask = ctx.mask;
    ctx.mask = null;
    try {
      kindOf(source.layer).paint(ctx, source.layer, source.path);
    } finally {
      ctx.mask = outerMask;
    }
    canvas.restore();
  }
  keep.delete();
  canvas.restore();
}

/** The sibling a `{ type: "alpha", layer }` mask names, with its JSON path. */
function sourceLayer(
  layer: Layer,
  id: string,
  path: string,
  siblings: readonly Layer[],
): { layer: Layer; path: string } {
  const index = siblings.findIndex((sibling) => sibling.id === id);
  const found = siblings[index];
  // Validation refuses these; a document rendered without validation still fails clearly.
  if (found === undefined || found === layer) {
    throw new EngineError(
      "invalid_mask",
      `${path}.mask.layer`,
      `no layer ${JSON.stringify(id)} beside this layer to mask it with`,
    );
  }
  return { layer: found, path: path.replace(/\.layers\[\d+\]$/, `.layers[${index}]`) };
}

/** From the masked layer's drawing coordinates to where the source layer draws: its transform after undoing the masked one's. */
function parentToLayer(ck: CanvasKit, layer: Layer, source: Layer): number[] {
  const into = localTransform(ck, source);
  const fromLayer = localTransform(ck, layer);
  const back = fromLayer ? ck.Matrix.invert(fromLayer) : null;
  return (into && back ? ck.Matrix.multiply(back, into) : (into ?? back)) ?? ck.Matrix.identity();
}
