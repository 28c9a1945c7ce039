import type { CanvasKit, Path } from "canvaskit-wasm";
import type { ImageRequest } from "../../api.ts";
import type { LayerBase, LayerDefinition } from "../../document/layers/kind.ts";
import type { Bindings } from "../bindings.ts";
import type { PaintContext } from "../context.ts";
import type { Silhouette } from "../shadows.ts";

/**
 * The drawing half of one layer type: layout and drawing of a layer the document half
 * (document/layers/<type>.ts) has validated. Each is a file in this folder, registered by its type in
 * `registry.ts`; nothing else in the renderer switches over layer types.
 */
export interface LayerPainter<L extends LayerBase = LayerBase> {
  /** Draws the layer in its parent's coordinate space (rotation, flip, mask, opacity and effects applied). */
  paint(ctx: PaintContext, layer: L, path: string): void;
  /** The words the layer shows in this render and their font size (template px), for a PDF's selectable text. */
  readableText?(ctx: PaintContext, layer: L, path: string): { text: string; size: number } | null;
  /**
   * Template pixels the drawing may reach beyond the box (text overhang, centred strokes); bounds the
   * offscreen layer used for opacity. Default 1.
   */
  overhang?(layer: L): number;
  /**
   * What the layer casts drop shadows from (its outline and opacity), when the kind can tell without
   * drawing; the shadows are then blurred outlines (render/shadows.ts). Without it, or when it returns
   * null, shadows are a drop-shadow filter of the layer's pixels (slower, exact for any content).
   */
  silhouette?(ctx: PaintContext, layer: L, path: string): Silhouette | null;
  /**
   * Whether `silhouette` gives this layer an outline, known without drawing (its fill is not none):
   * the cost estimate (render/cost.ts) then counts only the silhouette's shadows. Without it, a kind
   * with a silhouette is counted as if it might fall back to shadows from its pixels.
   */
  castsSilhouette?(layer: L, path: string, bindings: Bindings): boolean;
  /**
   * Its drawing depends on nothing but the layer's own properties and the transform (no fonts,
   * images or icons): an unbound shadowed layer of such a kind is drawn once into a raster and copied
   * onto later renders (render/layer-rasters.ts).
   */
  readonly selfContained?: boolean;
  /**
   * The kind applies its mask itself (`ctx.mask`, not clipped on the canvas): images fold it into
   * their pixels, since a clip under an image is slow in the engine's Skia (render/image-pixels.ts).
   */
  readonly masksItself?: boolean;
  /** The layer's outline in its parent's coordinates, for kinds whose definition says `canMask`. */
  outline?(ck: CanvasKit, layer: L): Path | null;
  /**
   * Drawn even when the box has no area (a line across a box of height 0); other leaf layers with an
   * empty box draw nothing and are skipped.
   */
  readonly drawsWithoutArea?: boolean;
  /**
   * The size of the layer's content for `layout: hug` (kinds whose definition says `hugs`): given a
   * width and/or a height, null where the content may take what it wants. `arranger` measures and
   * places children (a stack's).
   */
  measure?(ctx: PaintContext, layer: L, path: string, box: SizeQuery, arranger: Arranger): Size;
  /**
   * A container that places its children itself (a stack): the layer, in its final box, with its
   * children moved and sized (copies; the document is never changed).
   */
  arrange?(ctx: PaintContext, layer: L, path: string, arranger: Arranger): L;
  /**
   * Whether the layer shows nothing in this render though it is drawn (a text or image whose bound
   * value is empty): a stack gives it no space.
   */
  isEmpty?(layer: L, path: string, bindings: Bindings): boolean;
  /**
   * A container whose children depend on the render's values (a stack's repeat): its children as
   * drawn, with their JSON paths. Without it, the document half's `children` are.
   */
  drawnChildren?(layer: L, path: string, bindings: Bindings): readonly { layer: LayerBase; path: string }[];
  /** Images the host must prepare for this layer (after binding). */
  images?(layer: L, path: string, bindings: Bindings, scale: number): ImageRequest[];
  /**
   * Memory the kind's own drawing allocates beyond the common pipeline's (render/cost.ts: the frame's
   * surface, offscreen layers, shadows): rasters it draws into and pixel copies it makes, at an upper
   * bound. Kinds that draw paths and glyphs straight onto the canvas leave it out.
   */
  cost?(layer: L, path: string, ctx: CostContext): KindCost;
}

export interface Size {
  width: number;
  height: number;
}

/** A measure's question: the width and height given, null where the content decides. */
export interface SizeQuery {
  width: number | null;
  height: number | null;
}

/** What a container's `measure` and `arrange` use for its children (render/arrange.ts). */
export interface Arranger {
  /** Whether a child takes space in this render: drawn (visible, its condition holds) and not empty. */
  shows(layer: LayerBase, path: string): boolean;
  /** How a child sizes itself on each axis, as its kind allows (an image is always fixed). */
  sizing(layer: LayerBase): { width: "fixed" | "hug" | "fill"; height: "fixed" | "hug" | "fill" };
  /** Whether a container may stretch the child across (not a kind that keeps its size). */
  stretches(layer: LayerBase): boolean;
  /** A child's content size (within its own maximum); its own size on an axis its kind cannot hug. */
  measure(layer: LayerBase, path: string, box: SizeQuery): Size;
  /** A child placed in its final box: a container child's own children arranged in turn. */
  place(layer: LayerBase, path: string): LayerBase;
}

/** Bytes by where they live: CanvasKit's WebAssembly heap, or outside it (JS typed arrays). */
export interface Bytes {
  heap: number;
  outside: number;
}

/** What a kind's own drawing of one layer allocates (LayerPainter.cost). */
export interface KindCost {
  /** Held while the layer is drawn, given back (or reused) once it is. */
  drawing: Bytes;
  /** Held from the layer's drawing to the end of the render (an image's composed pixels, cached). */
  kept?: Bytes;
}

/** Where a layer is drawn, for LayerPainter.cost: no canvas, only what decides the sizes. */
export interface CostContext {
  bindings: Bindings;
  scale: number;
  /** The canvas is neither turned nor mirrored here (rasters are drawn in device pixels only then). */
  axisAligned: boolean;
  /** Device pixels an offscreen layer can cover at most here: the frame, or the raster drawn into. */
  clip: { width: number; height: number };
}

/** What the renderer knows of a layer type: its document half and its painter, joined by `type`. */
export type RenderKind<L extends LayerBase = LayerBase> = LayerDefinition<L> & LayerPainter<L>;

/** Declares a painter with its layer type inferred; registry.ts lists every one. */
export function definePainter<L extends LayerBase>(painter: LayerPainter<L>): LayerPainter<L> {
  return painter;
}
