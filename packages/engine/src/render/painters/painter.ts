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
  /** Images the host must prepare for this layer (after binding). */
  images?(layer: L, path: string, bindings: Bindings, scale: number): ImageRequest[];
}

/** What the renderer knows of a layer type: its document half and its painter, joined by `type`. */
export type RenderKind<L extends LayerBase = LayerBase> = LayerDefinition<L> & LayerPainter<L>;

/** Declares a painter with its layer type inferred; registry.ts lists every one. */
export function definePainter<L extends LayerBase>(painter: LayerPainter<L>): LayerPainter<L> {
  return painter;
}
