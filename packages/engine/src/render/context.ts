import type { Canvas, CanvasKit, Paint, Path } from "canvaskit-wasm";
import type { DrawnText, LayerBox, PreparedImage, RenderWarning } from "../api.ts";
import type { Layer } from "../document/schema.ts";
import type { Bindings } from "./bindings.ts";
import type { FontLibrary } from "./fonts.ts";
import type { GradientGlyphs } from "./gradient-glyphs.ts";
import type { IconLibrary } from "./icons.ts";
import type { ComposedImages } from "./image-pixels.ts";
import type { LayerRasters } from "./layer-rasters.ts";
import type { Size } from "./painters/painter.ts";
import type { PixelShadows } from "./pixel-shadows.ts";
import type { ParagraphFactory } from "./text-layout.ts";

/** Everything a layer painter needs for one render. */
export interface PaintContext {
  ck: CanvasKit;
  canvas: Canvas;
  fonts: FontLibrary;
  paragraphs: ParagraphFactory;
  bindings: Bindings;
  warnings: RenderWarning[];
  images: ReadonlyMap<string, PreparedImage>;
  /** Icon outlines from the host's icon data, cached per engine. */
  icons: IconLibrary;
  /** Image layers' pixels with filters and masks applied, cached per engine. */
  composedImages: ComposedImages;
  /** Rasters of unbound shadowed layers, drawn once and copied, cached per engine. */
  layerRasters: LayerRasters;
  /** Glyphs filled with a gradient, recoloured in JS. */
  gradientGlyphs: GradientGlyphs;
  /** Drop shadows from a layer's pixels, for kinds without a silhouette. */
  pixelShadows: PixelShadows;
  scale: number;
  /** One paint reused by every shape and layer of the engine; painters set every property they rely on. */
  paint: Paint;
  /**
   * The outline the layer being painted is masked to, in its drawing coordinates (render/mask.ts), or
   * null; set by the common pipeline for each layer, so kinds that draw along their edge (image
   * borders) can follow it.
   */
  mask: Path | null;
  /** Where drawn texts are listed when the caller asked (`collectText`), else null. */
  texts: DrawnText[] | null;
  /** Boxes layout gave layers in this render, by layer id (RenderResult.boxes). */
  boxes: Record<string, LayerBox>;
  /**
   * Content sizes measured in this render, by layer object and question: a nested stack asks its
   * children the same questions while measuring and again while placing them. A Map: it lives for
   * one render only (a WeakMap's entries cost the collector more).
   */
  measured: Map<object, Map<string, Size>>;
  /**
   * Paints child layers (a group's) with every common property applied; `path` is the parent's JSON
   * path, `paths` each layer's own when they are not `path.layers[i]` (a stack's laid-out children).
   */
  paintLayers(layers: readonly Layer[], path: string, paths?: readonly string[]): void;
}
