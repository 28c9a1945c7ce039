import type { Canvas, Image } from "canvaskit-wasm";
import type { PreparedImage } from "../../api.ts";
import type { ImageLayerT } from "../../document/layers/image.ts";
import type { PaintContext } from "../context.ts";
import { EngineError } from "../errors.ts";
import { imageBorder } from "../image-border.ts";
import { filterMatrices, imageFilterPaint } from "../image-filters.ts";
import type { ImageClip } from "../image-pixels.ts";
import { imageRequestFor } from "../image-plan.ts";
import { drawablePixels } from "../premultiply.ts";
import { pixelImage } from "../surface.ts";
import { type CostContext, definePainter, type KindCost } from "./painter.ts";

export const imagePainter = definePainter<ImageLayerT>({
  paint: paintImage,
  masksItself: true,
  // An opaque picture casts the shadow of its box (rounded as drawn; cut to the mask by the pipeline);
  // one with transparent pixels (a cut-out product, a contained logo) is filtered, following its alpha.
  silhouette(ctx, layer, path) {
    const request = imageRequestFor(layer, path, ctx.bindings, ctx.scale);
    const prepared = request === null ? undefined : ctx.images.get(request.key);
    if (prepared === undefined) return null;
    if (!drawablePixels(prepared.rgba).opaque) return null;
    const radius = layer.corner_radius ?? 0;
    const rrect = ctx.ck.RRectXY(
      ctx.ck.XYWHRect(layer.x, layer.y, layer.width, layer.height),
      radius,
      radius,
    );
    const builder = new ctx.ck.PathBuilder();
    builder.addRRect(rrect);
    return { outline: builder.detachAndDelete(), alpha: 1, rrect };
  },
  // An image whose source resolves empty draws nothing: a stack gives it no space.
  isEmpty: (layer, path, bindings) =>
    bindings.resolve(layer.bind, "src", layer.src, `${path}.src`, layer.id).value === "",
  images(layer, path, bindings, scale) {
    const request = imageRequestFor(layer, path, bindings, scale);
    return request ? [request] : [];
  },
  cost: imageCost,
});

/**
 * What drawing an image layer allocates besides the prepared pixels the host hands in (counted by
 * render/cost.ts for every image), at an upper bound of both ways paintImage may take. Snapped 1:1
 * (render/image-pixels.ts): a JS copy of the pixels, with 8-byte floats a channel while colour filters
 * apply; the composed image kept in the heap by the engine's cache, with an opaque twin when a mask or
 * radius makes it partly transparent, and a coverage raster for a mask, radius or border. Through
 * Skia (turned, mirrored, blurred): a premultiplied JS copy, its image, and for a blur the filter's
 * source and result within the clip.
 */
function imageCost(layer: ImageLayerT, path: string, ctx: CostContext): KindCost {
  const request = imageRequestFor(layer, path, ctx.bindings, ctx.scale);
  if (request === null) return { drawing: { heap: 0, outside: 0 } };
  const pixels = request.width * request.height;
  const filtered = layer.filters
    ? filterMatrices(layer.filters, layer.bind, ctx.bindings, path, layer.id).length > 0
    : false;
  const clipped = (layer.corner_radius ?? 0) > 0 || layer.mask !== undefined;
  const coverage = clipped || layer.border !== undefined;
  const composed: KindCost = {
    drawing: { heap: 0, outside: 4 * pixels + (filtered ? 32 * pixels : 0) },
    kept: { heap: 4 * pixels * (1 + (clipped ? 1 : 0) + (coverage ? 1 : 0)), outside: 0 },
  };
  const blurred = (layer.filters?.blur ?? 0) > 0;
  const onCanvas = Math.min(request.width, ctx.clip.width) * Math.min(request.height, ctx.clip.height);
  const throughSkia = { heap: 4 * pixels + (blurred ? 8 * onCanvas : 0), outside: 4 * pixels };
  return {
    drawing: {
      heap: Math.max(composed.drawing.heap, throughSkia.heap),
      outside: Math.max(composed.drawing.outside, throughSkia.outside),
    },
    kept: composed.kept ?? { heap: 0, outside: 0 },
  };
}

/**
 * Draws the host-prepared pixels of an image layer 1:1 with nearest sampling (architecture.md: cubic
 * resampling in the engine cost 75-93 ms). Fit and focal point were applied by the host. Axis-aligned
 * layers are snapped to whole device pixels so each source pixel lands on exactly one surface pixel;
 * their colour filters, corner radius and mask are folded into the pixels (render/image-pixels.ts), so
 * the canvas only blits them. Rotated and mirrored layers, and blurred ones, are drawn into their
 * local box through Skia's filters and clips. The border goes on top, following the mask.
 */
function paintImage(ctx: PaintContext, layer: ImageLayerT, path: string): void {
  const request = imageRequestFor(layer, path, ctx.bindings, ctx.scale);
  if (!request) return;
  const prepared = ctx.images.get(request.key);
  if (!prepared) return;
  if (prepared.width !== request.width || prepared.height !== request.height) {
    throw new EngineError(
      "image_size_mismatch",
      `${path}.src`,
      `prepared image is ${prepared.width}x${prepared.height}, the layer needs ${request.width}x${request.height}`,
    );
  }
  const { ck, canvas } = ctx;
  const m = canvas.getTotalMatrix();
  const [sx = 1, kx = 0, tx = 0, ky = 0, sy = 1, ty = 0] = m;
  // Mirrored layers (flip_x, flip_y) take the local-box path too: the snapped rectangle is unmirrored.
  const inverse = kx === 0 && ky === 0 && sx > 0 && sy > 0 ? ck.Matrix.invert(m) : null;
  const source = ck.XYWHRect(0, 0, prepared.width, prepared.height);
  const border = imageBorder(ctx, layer, path);
  const matrices = layer.filters
    ? filterMatrices(layer.filters, layer.bind, ctx.bindings, path, layer.id)
    : [];
  // A corner radius alone is what v1 documents could draw: it keeps Skia's clip, so they draw the very
  // same bytes as before document v2 (the clip's blending rounds differently from folded coverage).
  const v1Rounded = (layer.corner_radius ?? 0) > 0 && ctx.mask === null && matrices.length === 0;
  if (inverse && (layer.filters?.blur ?? 0) <= 0 && !v1Rounded) {
    const left = Math.round(sx * layer.x + tx);
    const top = Math.round(sy * layer.y + ty);
    const toImage = ck.Matrix.multiply(ck.Matrix.translated(-left, -top), m);
    // The border is folded into the pixels too: stroked under an antialiased clip, it cost 0.3 ms a render.
    const overlay =
      border === null
        ? null
        : { key: border.key, matrix: toImage, draw: (raster: Canvas) => border.draw(raster, ctx.mask) };
    const composed = ctx.composedImages.composed(
      prepared,
      matrices,
      coverageOf(ctx, layer, toImage),
      overlay,
    );
    canvas.save();
    canvas.concat(inverse);
    const dest = ck.XYWHRect(left, top, prepared.width, prepared.height);
    const draw = (image: Image) =>
      canvas.drawImageRectOptions(image, source, dest, ck.FilterMode.Nearest, ck.MipmapMode.None, null);
    // Opaque rectangles inside a masked photo are copied; the rest blends (render/image-pixels.ts).
    const inside = composed.interior.map((r) => ck.XYWHRect(left + r.left, top + r.top, r.width, r.height));
    if (composed.opaqueImage !== null) {
      for (const rect of inside) {
        canvas.save();
        canvas.clipRect(rect, ck.ClipOp.Intersect, false);
        draw(composed.opaqueImage);
        canvas.restore();
      }
    }
    for (const rect of inside) canvas.clipRect(rect, ck.ClipOp.Difference, false);
    draw(composed.image);
    canvas.restore();
  } else {
    paintImageThroughSkia(ctx, layer, path, prepared, inverse);
    border?.draw(canvas, ctx.mask);
  }
  if (prepared.upscaled) {
    ctx.warnings.push({
      code: "image_upscaled",
      slot: request.slot,
      layer: layer.id,
      message: `Image of layer "${layer.id}" has fewer pixels than its ${request.width}x${request.height} box and was enlarged.`,
      ...(prepared.enlargement !== undefined ? { details: { factor: prepared.enlargement } } : {}),
    });
  }
}

/**
 * The coverage the image's pixels take (its mask and corner radius, with the matrix from the layer's
 * coordinates to the image's device pixels), or null when it has none.
 */
function coverageOf(ctx: PaintContext, layer: ImageLayerT, toImage: number[]): ImageClip | null {
  const { ck } = ctx;
  const radius = layer.corner_radius ?? 0;
  const rrect =
    radius > 0 ? ck.RRectXY(ck.XYWHRect(layer.x, layer.y, layer.width, layer.height), radius, radius) : null;
  const outlines = ctx.mask === null ? [] : [ctx.mask];
  if (rrect === null && outlines.length === 0) return null;
  const key = `${toImage.join(",")}|${radius}|${outlines.map((outline) => outline.toCmds().join(",")).join("|")}`;
  return { matrix: toImage, outlines, rrect, key };
}

/** The general path: Skia draws the image through the filters' paint, clipped to the radius and mask. */
function paintImageThroughSkia(
  ctx: PaintContext,
  layer: ImageLayerT,
  path: string,
  prepared: PreparedImage,
  inverse: number[] | null,
): void {
  const { ck, canvas } = ctx;
  const { pixels, opaque } = drawablePixels(prepared.rgba);
  const image = pixelImage(ck, pixels, prepared.width, prepared.height, opaque, ck.ColorSpace.SRGB);
  const { x, y, width: w, height: h } = layer;
  const source = ck.XYWHRect(0, 0, prepared.width, prepared.height);
  canvas.save();
  if (ctx.mask !== null) canvas.clipPath(ctx.mask, ck.ClipOp.Intersect, true);
  const radius = layer.corner_radius ?? 0;
  if (radius > 0)
    canvas.clipRRect(ck.RRectXY(ck.XYWHRect(x, y, w, h), radius, radius), ck.ClipOp.Intersect, true);
  const [sx = 1, , tx = 0, , sy = 1, ty = 0] = canvas.getTotalMatrix();
  // Filters draw through a paint; a blur's sigma is in the canvas's units: device px on the snapped
  // path, template px (Skia scales it) when rotated.
  const filtered = imageFilterPaint(
    ck,
    layer.filters,
    layer.bind,
    ctx.bindings,
    path,
    layer.id,
    inverse ? sx : 1,
  );
  let dest: Float32Array;
  if (inverse) {
    const left = Math.round(sx * x + tx);
    const top = Math.round(sy * y + ty);
    canvas.concat(inverse);
    dest = ck.XYWHRect(left, top, prepared.width, prepared.height);
  } else {
    dest = ck.XYWHRect(x, y, w, h);
  }
  // The blur extends the edge pixels outward: keep it to the image's own box.
  if (filtered?.blurs) canvas.clipRect(dest, ck.ClipOp.Intersect, inverse === null);
  const imagePaint = filtered?.paint ?? null;
  canvas.drawImageRectOptions(image, source, dest, ck.FilterMode.Nearest, ck.MipmapMode.None, imagePaint);
  canvas.restore();
  image.delete();
  imagePaint?.delete();
}
