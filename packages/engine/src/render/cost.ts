import type { ImageRequest, SlotValues } from "../api.ts";
import { isAlphaMask } from "../document/common.ts";
import type { LayerBase } from "../document/layers/kind.ts";
import type { Layer, TemplateDocumentT } from "../document/schema.ts";
import { Bindings } from "./bindings.ts";
import { isDrawn } from "./drawn-layers.ts";
import { shadowReach } from "./effects.ts";
import { planFrameImages, planPatternTiles } from "./frame-images.ts";
import { checkScale, findFrame, toDevice } from "./geometry.ts";
import { drawsThroughRaster } from "./layer-rasters.ts";
import type { Bytes, CostContext, RenderKind } from "./painters/painter.ts";
import { kindOf } from "./painters/registry.ts";
import { boxRadii, LARGE_SCRATCH_BYTES } from "./pixel-shadows.ts";
import { sigmaOf } from "./shadows.ts";
import { MAX_KEPT_BACKGROUND_BYTES } from "./surface.ts";

/**
 * What drawing one frame holds at its peak, estimated from the document alone (no canvas, no fonts,
 * no image bytes), so a host can refuse a render before it is charged instead of letting it exhaust
 * a render thread. An upper bound: every raster is counted at the largest size it can take (a text
 * shadow's raster as its whole box and overhang, not the glyphs' ink; an offscreen layer as its
 * bounds within the frame), every pixel copy as if made, and the rasters of a layer are added up as if
 * none were freed before the next was made. Layers are drawn one after another: what one layer
 * allocates for its own drawing is given back before the next is drawn, so the frame's peak is its
 * surface, the image pixels the host prepared, what layers keep (composed images), and the costliest
 * layer's own drawing.
 *
 * Where the bytes live matters: CanvasKit's WebAssembly heap cannot grow past 2 GiB, so a frame whose
 * rasters do not fit there cannot be drawn at all, whatever memory the machine has (`fitsHeap`).
 *
 * What allocates (render/):
 * - the frame's surface (engine.ts), 4 bytes a device pixel, in the heap; a gradient background's
 *   pixels kept outside it (LastBackground, up to 16 MiB);
 * - an offscreen layer for opacity, a blend mode or filtered shadows (layers.ts, effects.ts), bounded
 *   by the layer's box, overhang and shadows' reach within the clip; for a group by the clip; a
 *   drop-shadow filter evaluates each shadow into rasters of its own on restore;
 * - shadows from a silhouette (shadows.ts): a blurred A8 mask of the outline per shadow;
 * - shadows from the layer's pixels (pixel-shadows.ts): a raster of the box and overhang, its copy
 *   in JS, each shadow's alpha, blurred copy and tinted pixels in JS (6 bytes a pixel of the raster
 *   widened by three box-blur radii, about 1.5 blur at scale, on each side) and an image of each in the
 *   heap, and the layer's image;
 * - a layer drawn once into a raster of its own (layer-rasters.ts): the raster of its box, overhang
 *   and shadows' reach, and the snapshot of its inked part;
 * - what a kind draws itself (LayerPainter.cost): an image's composed pixels (image-pixels.ts), a
 *   gradient text's glyph raster (gradient-glyphs.ts).
 * Left out as small: a mask of another kind (a clip, which Skia keeps as run-length rows), text
 * layout and glyphs (drawn as paths when large), paths and paints.
 */

/** CanvasKit's WebAssembly heap cannot grow past 2 GiB (canvaskit-wasm 0.42's build). */
export const CANVASKIT_HEAP_LIMIT_BYTES = 2 * 1024 * 1024 * 1024;
/**
 * What the heap holds before a render's own pixels: its initial 128 MiB (CanvasKit's own data, the
 * fonts drawn so far, the engine's caches).
 */
export const CANVASKIT_HEAP_BASE_BYTES = 128 * 1024 * 1024;

export interface LayerCost {
  id: string;
  /** JSON path, e.g. `frames[0].layers[2]`. */
  path: string;
  /** The layer's own rasters and pixel copies (a group's own offscreen layer, not its children's). */
  bytes: number;
  /** Of those, in CanvasKit's heap. */
  heapBytes: number;
}

export interface FrameCost {
  frame: string;
  /** JSON path of the frame, e.g. `frames[1]`. */
  path: string;
  scale: number;
  /** Output size in device pixels. */
  width: number;
  height: number;
  /** Peak bytes in CanvasKit's heap beyond its base: the surface, offscreen rasters, images. */
  heapBytes: number;
  /** Peak bytes outside it: the prepared images the host hands in, pixel copies made in JS. */
  outsideBytes: number;
  /** heapBytes + outsideBytes. */
  bytes: number;
  /** The frame's surface (4 bytes a device pixel; part of heapBytes). */
  surfaceBytes: number;
  /** The host's prepared image pixels (part of outsideBytes). */
  imageBytes: number;
  /** Whether the heap can hold the frame's rasters at all (heapBytes + base <= the heap's limit). */
  fitsHeap: boolean;
  /** Drawn layers with their own bytes, costliest first (layers that allocate nothing left out). */
  layers: LayerCost[];
  /** The images the frame's drawn layers name (after binding), as the host will be asked for them. */
  images: ImageRequest[];
}

export interface CostOptions {
  /** Default: the document's first frame. */
  frame?: string | undefined;
  scale?: number | undefined;
  values?: SlotValues | undefined;
}

const NONE: Bytes = { heap: 0, outside: 0 };
const add = (...parts: Bytes[]): Bytes => ({
  heap: parts.reduce((sum, p) => sum + p.heap, 0),
  outside: parts.reduce((sum, p) => sum + p.outside, 0),
});
/** Either of two ways a layer may be drawn: each part at its larger. */
const larger = (a: Bytes, b: Bytes): Bytes => ({
  heap: Math.max(a.heap, b.heap),
  outside: Math.max(a.outside, b.outside),
});
const total = (b: Bytes) => b.heap + b.outside;

/** What a layer (and, for a group, its children) holds while drawn, and keeps after. */
interface Drawn {
  drawing: Bytes;
  kept: Bytes;
}

interface Walk extends CostContext {
  /** Degrees the canvas is turned by the layers around this one. */
  turn: number;
  /** Whether the layers around mirror the canvas horizontally, vertically. */
  mirrorX: boolean;
  mirrorY: boolean;
  layers: LayerCost[];
}

/** Device pixels a length of template px can cover, rounded outwards at both ends. */
const device = (length: number, scale: number) => Math.ceil(Math.max(0, length) * scale) + 1;

/** The device size of a box of template px turned by `degrees`: its bounding box. */
function turnedBox(width: number, height: number, degrees: number, scale: number) {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  const exact = degrees % 90 === 0;
  const w = exact ? (Math.round(cos) === 1 ? width : height) : width * cos + height * sin;
  const h = exact ? (Math.round(cos) === 1 ? height : width) : width * sin + height * cos;
  return { width: device(w, scale), height: device(h, scale) };
}

/** Pixels of a raster no larger than the clip (an offscreen layer is cut to it). */
const within = (size: { width: number; height: number }, clip: { width: number; height: number }) =>
  Math.min(size.width, clip.width) * Math.min(size.height, clip.height);

/** Estimates the peak memory of drawing one frame of a validated document at a scale. */
export function estimateFrameCost(document: TemplateDocumentT, options: CostOptions = {}): FrameCost {
  const scale = checkScale(options.scale);
  const { frame, path } = findFrame(document, options.frame);
  const bindings = new Bindings(document, options.values ?? {}, null);
  const width = toDevice(frame.width, scale);
  const height = toDevice(frame.height, scale);
  const surfaceBytes = 4 * width * height;
  const images = planFrameImages(frame, path, bindings, scale);
  const imageBytes = images.reduce((sum, r) => sum + 4 * r.width * r.height, 0);
  const background =
    typeof frame.background === "object" ? Math.min(surfaceBytes, MAX_KEPT_BACKGROUND_BYTES) : 0;
  const walk: Walk = {
    bindings,
    scale,
    axisAligned: true,
    clip: { width, height },
    turn: 0,
    mirrorX: false,
    mirrorY: false,
    layers: [],
  };
  const drawn = layersCost(frame.layers, path, walk);
  // An image pattern's tile is copied into the heap while a paint draws with it (one at a time), and
  // premultiplied once in JS when it has transparent pixels.
  const tiles = planPatternTiles(frame, path, bindings, scale).map((r) => 4 * r.width * r.height);
  const tileHeap = Math.max(0, ...tiles);
  const tileCopies = tiles.reduce((sum, bytes) => sum + bytes, 0);
  const heapBytes = surfaceBytes + drawn.kept.heap + drawn.drawing.heap + tileHeap;
  const outsideBytes = imageBytes + tileCopies + background + drawn.kept.outside + drawn.drawing.outside;
  return {
    frame: frame.name,
    path,
    scale,
    width,
    height,
    heapBytes,
    outsideBytes,
    bytes: heapBytes + outsideBytes,
    surfaceBytes,
    imageBytes,
    fitsHeap: heapBytes + CANVASKIT_HEAP_BASE_BYTES <= CANVASKIT_HEAP_LIMIT_BYTES,
    layers: walk.layers.filter((l) => l.bytes > 0).sort((a, b) => b.bytes - a.bytes),
    images,
  };
}

/** Layers drawn one after another: what each keeps adds up, their own drawing is the costliest one's. */
function layersCost(layers: readonly Layer[], path: string, walk: Walk): Drawn {
  return entriesCost(
    layers.map((layer, index) => ({ layer, path: `${path}.layers[${index}]` })),
    walk,
  );
}

function entriesCost(entries: readonly { layer: LayerBase; path: string }[], walk: Walk): Drawn {
  let drawing = NONE;
  let kept = NONE;
  for (const { layer, path } of entries) {
    if (!isDrawn(layer as Layer, walk.bindings)) continue;
    const drawn = layerCost(layer as Layer, path, walk);
    drawing = larger(drawing, drawn.drawing);
    kept = add(kept, drawn.kept);
  }
  return { drawing, kept };
}

/** One layer as render/layers.ts paints it: through a raster of its own, or directly. */
function layerCost(layer: Layer, path: string, outer: Walk): Drawn {
  const kind = kindOf(layer);
  const rotation = layer.rotation ?? 0;
  const mirrorX = outer.mirrorX !== (layer.flip_x === true);
  const mirrorY = outer.mirrorY !== (layer.flip_y === true);
  const turn = outer.turn + rotation;
  const walk: Walk = {
    ...outer,
    turn,
    mirrorX,
    mirrorY,
    axisAligned: turn % 360 === 0 && !mirrorX && !mirrorY,
  };
  if (drawsThroughRaster(layer, kind) && outer.axisAligned) {
    // LayerRasters: the raster of the box, overhang and shadows' reach (not cut to the frame), and the
    // snapshot of its inked part; the layer is drawn inside it as usual.
    const margin = (kind.overhang?.(layer) ?? 1) + shadowReach(layer);
    const raster = {
      width: device(layer.width + 2 * margin, walk.scale),
      height: device(layer.height + 2 * margin, walk.scale),
    };
    const own = { heap: 8 * raster.width * raster.height, outside: 0 };
    const inner = drawCost(layer, kind, path, { ...walk, clip: raster }, own);
    return { drawing: add(inner.drawing, own), kept: inner.kept };
  }
  return drawCost(layer, kind, path, walk, NONE);
}

/**
 * render/layers.ts drawLayer: an offscreen layer for opacity, blend and filtered shadows; shadows from
 * a silhouette or from the layer's pixels; then the kind's own drawing (a group's children). A kind
 * with a silhouette may still fall back to pixel or filtered shadows (an image with transparent
 * pixels, a shape without fill), so both ways are counted and the larger kept.
 */
function drawCost(layer: Layer, kind: RenderKind, path: string, walk: Walk, around: Bytes): Drawn {
  const { scale } = walk;
  const shadows = layer.shadows ?? [];
  const overhang = kind.overhang?.(layer) ?? 1;
  const reach = shadowReach(layer);
  const composited =
    (layer.opacity ?? 1) < 1 || (layer.blend_mode ?? "normal") !== "normal" || (layer.blur ?? 0) > 0;
  // A leaf's offscreen layer is bounded by its box, overhang and shadows' reach; a group's by the clip.
  const layerPixels = kind.children
    ? walk.clip.width * walk.clip.height
    : within(
        turnedBox(
          layer.width + 2 * (overhang + reach),
          layer.height + 2 * (overhang + reach),
          walk.turn,
          scale,
        ),
        walk.clip,
      );
  // A soft mask: the layer's offscreen drawing, and a source layer's own (render/soft-mask.ts).
  const softMask = isAlphaMask(layer.mask) ? ("layer" in layer.mask ? 8 : 4) : 0;
  const compositeBytes = ((composited ? 4 : 0) + softMask) * layerPixels;

  const content = (inner: Walk): Drawn => {
    // A repeat's children as drawn: one copy per item shown (each keeps what it keeps), and the "more" line.
    if (kind.drawnChildren !== undefined)
      return entriesCost(kind.drawnChildren(layer, path, inner.bindings), inner);
    if (kind.children) return layersCost(kind.children(layer) as Layer[], path, inner);
    const own = kind.cost?.(layer, path, inner);
    return { drawing: own?.drawing ?? NONE, kept: own?.kept ?? NONE };
  };
  const direct = content(walk);
  const ways: Drawn[] = [];
  if (shadows.length === 0) {
    ways.push({ drawing: add(direct.drawing, { heap: compositeBytes, outside: 0 }), kept: direct.kept });
  } else {
    if (kind.silhouette !== undefined) {
      // A blurred A8 mask of the outline per shadow, one after another: source, blurred and scratch rows.
      const masks = Math.max(
        ...shadows.map((shadow) => {
          const spread = 2 * 3 * sigmaOf(shadow.blur);
          const box = turnedBox(
            layer.width + 2 * overhang + spread,
            layer.height + 2 * overhang + spread,
            walk.turn,
            scale,
          );
          const limit = {
            width: walk.clip.width + device(spread, scale),
            height: walk.clip.height + device(spread, scale),
          };
          return 3 * within(box, limit);
        }),
      );
      ways.push({
        drawing: add(direct.drawing, { heap: compositeBytes + masks, outside: 0 }),
        kept: direct.kept,
      });
    }
    if (kind.castsSilhouette?.(layer, path, walk.bindings) === true) {
      // The outline is certain: no fallback.
    } else if (!kind.children && walk.axisAligned) {
      ways.push(pixelShadowsCost(layer, walk, overhang, compositeBytes, content));
    } else {
      // The offscreen layer with a drop-shadow filter: on restore each shadow is blurred into rasters of
      // its own (the blur's source and result), blended under the layer.
      const filtered = 4 * layerPixels * (1 + 2 * shadows.length);
      ways.push({ drawing: add(direct.drawing, { heap: filtered, outside: 0 }), kept: direct.kept });
    }
  }
  const drawn = ways.reduce((a, b) => ({
    drawing: larger(a.drawing, b.drawing),
    kept: larger(a.kept, b.kept),
  }));
  // The layer's own share, for naming the layer that costs most: a group's children are named
  // themselves, the group only for what it adds around them.
  const own = kind.children
    ? add(around, {
        heap: drawn.drawing.heap - direct.drawing.heap,
        outside: drawn.drawing.outside - direct.drawing.outside,
      })
    : add(around, drawn.drawing, drawn.kept);
  walk.layers.push({ id: layer.id, path, bytes: total(own), heapBytes: own.heap });
  return drawn;
}

/**
 * PixelShadows (render/pixel-shadows.ts): the layer drawn into a raster of its box and overhang (not
 * cut to the frame) and copied to JS; per shadow, its alpha, a blurred copy and its tinted pixels in
 * JS over the raster widened by the box blurs' radii, each made an image in the heap; then the layer's
 * own image. The raster is freed (and its heap reused) once copied, when it is large.
 */
function pixelShadowsCost(
  layer: Layer,
  walk: Walk,
  overhang: number,
  compositeBytes: number,
  content: (inner: Walk) => Drawn,
): Drawn {
  const { scale } = walk;
  const raster = {
    width: device(layer.width + 2 * overhang, scale),
    height: device(layer.height + 2 * overhang, scale),
  };
  const pixels = raster.width * raster.height;
  let shadowHeap = 0;
  let shadowOutside = 0;
  for (const shadow of layer.shadows ?? []) {
    const pad = boxRadii(sigmaOf(shadow.blur) * scale).reduce((a, b) => a + b, 0);
    const cast = (raster.width + 2 * pad) * (raster.height + 2 * pad);
    shadowHeap += 4 * cast;
    shadowOutside += 6 * cast;
  }
  const scratchKept = 4 * pixels <= LARGE_SCRATCH_BYTES ? 4 * pixels : 0;
  const inner = content({ ...walk, clip: raster });
  return {
    drawing: add(inner.drawing, {
      heap: compositeBytes + Math.max(4 * pixels, 4 * pixels + shadowHeap) + scratchKept,
      outside: 4 * pixels + shadowOutside,
    }),
    kept: inner.kept,
  };
}
