import type { Canvas, Path } from "canvaskit-wasm";
import type { DrawnText } from "../api.ts";
import { isAlphaMask } from "../document/common.ts";
import type { Layer } from "../document/schema.ts";
import { laidOut } from "./arrange.ts";
import type { PaintContext } from "./context.ts";
import { type AxisAligned, axisAligned, inDeviceSpace } from "./device-space.ts";
import { isDrawn } from "./drawn-layers.ts";
import { compositingPaint, shadowReach } from "./effects.ts";
import { drawsThroughRaster } from "./layer-rasters.ts";
import { localTransform, maskOutline } from "./mask.ts";
import type { RenderKind } from "./painters/painter.ts";
import { kindOf } from "./painters/registry.ts";
import { drawSilhouetteShadows, intersectOutline, type Silhouette } from "./shadows.ts";
import { drawSoftMasked } from "./soft-mask.ts";
import type { Underlays } from "./underlay.ts";

/**
 * Paints layers in order; `path` is the JSON path of their parent (frame or group). A frame's
 * top-level layers come with what lies under each (render/underlay.ts).
 */
export function paintLayers(
  ctx: PaintContext,
  layers: readonly Layer[],
  path: string,
  underlays: Underlays | null = null,
  paths?: readonly string[],
): void {
  layers.forEach((layer, index) => {
    if (!isDrawn(layer, ctx.bindings)) return;
    const layerPath = paths?.[index] ?? `${path}.layers[${index}]`;
    paintLayer(ctx, laidOut(ctx, layer, layerPath), layerPath, layers, underlays, index);
  });
}

/**
 * Paints layers from index `start` on (the ones before are already on the surface), calling
 * `before(index)` before each index and once after the last (index = layers.length).
 */
export function paintLayersFrom(
  ctx: PaintContext,
  layers: readonly Layer[],
  path: string,
  start: number,
  before: (index: number) => void,
  underlays: Underlays | null = null,
): void {
  for (let index = start; index < layers.length; index++) {
    before(index);
    const layer = layers[index] as Layer;
    if (!isDrawn(layer, ctx.bindings)) continue;
    const layerPath = `${path}.layers[${index}]`;
    paintLayer(ctx, laidOut(ctx, layer, layerPath), layerPath, layers, underlays, index);
  }
  before(layers.length);
}

/**
 * Common layer properties, the same for every kind: rotation (degrees clockwise about the box
 * centre), flip, then opacity, shadows and blend mode in one offscreen layer (render/effects.ts), so
 * overlapping parts of one layer (fill and stroke, a group's children) blend once, as in design tools. The mask clips last, inside those layers (render/mask.ts); `siblings` are the layers
 * of the same parent, where `{ layer }` masks are found.
 */
function paintLayer(
  ctx: PaintContext,
  layer: Layer,
  path: string,
  siblings: readonly Layer[],
  underlays: Underlays | null,
  index: number,
): void {
  const kind = kindOf(layer);
  if (ctx.texts !== null && kind.readableText !== undefined) noteText(ctx, ctx.texts, layer, kind, path);
  if (drawsThroughRaster(layer, kind)) {
    const drawn = ctx.layerRasters.paint(
      ctx.canvas,
      layer,
      kind,
      (canvas) => drawLayer({ ...ctx, canvas }, layer, kind, path, siblings),
      underlays?.at(index) ?? null,
    );
    if (drawn) return;
  }
  drawLayer(ctx, layer, kind, path, siblings);
}

function drawLayer(
  ctx: PaintContext,
  layer: Layer,
  kind: RenderKind,
  path: string,
  siblings: readonly Layer[],
): void {
  const { canvas, ck } = ctx;
  const rotation = layer.rotation ?? 0;
  const saved = canvas.save();
  const cx = layer.x + layer.width / 2;
  const cy = layer.y + layer.height / 2;
  if (rotation !== 0) canvas.rotate(rotation, cx, cy);
  if (layer.flip_x === true || layer.flip_y === true) {
    canvas.translate(cx, cy);
    canvas.scale(layer.flip_x === true ? -1 : 1, layer.flip_y === true ? -1 : 1);
    canvas.translate(-cx, -cy);
  }
  // The mask's outline, built once: it cuts the shadows' silhouette, clips the canvas (or the kind
  // folds it in) and is what kinds that draw along the edge follow.
  const softMask = isAlphaMask(layer.mask) ? layer.mask : null;
  const mask =
    layer.mask === undefined || isAlphaMask(layer.mask)
      ? null
      : maskOutline(ck, layer, layer.mask, siblings, path);
  // A soft mask fades the layer: its shadows come from the faded pixels, not an outline.
  const silhouette = softMask === null ? castsSilhouette(ctx, layer, path, mask) : null;
  const shadows = layer.shadows ?? [];
  // Without a silhouette, shadows come from the layer's pixels: blurred in JS when the canvas is
  // axis-aligned (render/pixel-shadows.ts), else Skia's drop-shadow filter.
  const fromPixels =
    silhouette === null && shadows.length > 0 && !kind.children ? deviceTransformFor(canvas) : null;
  const composite = compositingPaint(ck, layer, path, silhouette === null && fromPixels === null);
  if (composite !== null) {
    // Bounded to the box plus the kind's overhang and the shadows' reach, to keep the offscreen layer small.
    const margin = kind.children ? null : (kind.overhang?.(layer) ?? 1) + shadowReach(layer);
    canvas.saveLayer(
      composite,
      margin === null
        ? null
        : ck.LTRBRect(
            layer.x - margin,
            layer.y - margin,
            layer.x + layer.width + margin,
            layer.y + layer.height + margin,
          ),
    );
    composite.delete();
  }
  if (silhouette !== null) {
    drawSilhouetteShadows(ctx, shadows, silhouette, `${path}.shadows`);
    silhouette.outline.delete();
  }
  try {
    if (fromPixels === null) {
      drawContent(ctx, layer, kind, path, mask, siblings);
    } else {
      const margin = kind.overhang?.(layer) ?? 1;
      const box = {
        x0: layer.x - margin,
        y0: layer.y - margin,
        x1: layer.x + layer.width + margin,
        y1: layer.y + layer.height + margin,
      };
      ctx.pixelShadows.paint(canvas, fromPixels, box, shadows, `${path}.shadows`, (offscreen) => {
        const inRaster: PaintContext = {
          ...ctx,
          canvas: offscreen,
          paintLayers: (layers, parentPath, paths) => paintLayers(inRaster, layers, parentPath, null, paths),
        };
        drawContent(inRaster, layer, kind, path, mask, siblings);
      });
    }
  } finally {
    mask?.delete();
  }
  canvas.restoreToCount(saved);
}

/** The layer's own drawing: clipped to its mask (unless the kind folds the mask in), then the kind's paint. */
function drawContent(
  ctx: PaintContext,
  layer: Layer,
  kind: RenderKind,
  path: string,
  mask: Path | null,
  siblings: readonly Layer[],
): void {
  if (isAlphaMask(layer.mask)) {
    const soft = layer.mask;
    drawSoftMasked(ctx, layer, soft, path, siblings, () =>
      drawContent(ctx, { ...layer, mask: undefined } as Layer, kind, path, null, siblings),
    );
    return;
  }
  if (mask !== null && !kind.masksItself) ctx.canvas.clipPath(mask, ctx.ck.ClipOp.Intersect, true);
  const outerMask = ctx.mask;
  ctx.mask = mask;
  try {
    kind.paint(ctx, layer, path);
  } finally {
    ctx.mask = outerMask;
  }
}

/** The canvas's transform if pixel shadows can be drawn under it (axis-aligned, exactly undone). */
function deviceTransformFor(canvas: Canvas): AxisAligned | null {
  const t = axisAligned(canvas);
  return t !== null && inDeviceSpace(canvas, t, () => {}) ? t : null;
}

/** The silhouette a shadowed layer casts its shadows from (cut to its mask), or null: filter them. */
function castsSilhouette(
  ctx: PaintContext,
  layer: Layer,
  path: string,
  mask: Path | null,
): Silhouette | null {
  if ((layer.shadows ?? []).length === 0) return null;
  const silhouette = kindOf(layer).silhouette?.(ctx, layer, path) ?? null;
  if (silhouette === null || mask === null) return silhouette;
  const outline = intersectOutline(ctx.ck, silhouette.outline, mask);
  // Cut to the mask, the outline is no longer the rounded rectangle it may have been.
  return outline === null ? null : { outline, alpha: silhouette.alpha };
}

/** Lists the layer's words with the bounds of its box in output pixels (the canvas's transform and its own turn). */
function noteText(ctx: PaintContext, texts: DrawnText[], layer: Layer, kind: RenderKind, path: string): void {
  const readable = kind.readableText?.(ctx, layer, path);
  if (!readable || readable.text.trim() === "") return;
  const { ck, canvas } = ctx;
  const own = localTransform(ck, layer);
  const matrix = own === null ? canvas.getTotalMatrix() : ck.Matrix.multiply(canvas.getTotalMatrix(), own);
  const { x, y, width, height } = layer;
  const corners = ck.Matrix.mapPoints(matrix, [x, y, x + width, y, x, y + height, x + width, y + height]);
  const xs = corners.filter((_, i) => i % 2 === 0);
  const ys = corners.filter((_, i) => i % 2 === 1);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  const [a = 1, b = 0, , d = 0, e = 1] = matrix;
  texts.push({
    text: readable.text,
    x: left,
    y: top,
    width: Math.max(...xs) - left,
    height: Math.max(...ys) - top,
    size: readable.size * Math.sqrt(Math.abs(a * e - b * d)),
  });
}
