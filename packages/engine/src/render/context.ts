import type { Canvas, CanvasKit, Paint } from "canvaskit-wasm";
import type { PreparedImage, RenderWarning } from "../api.ts";
import type { Layer } from "../document/schema.ts";
import type { Bindings } from "./bindings.ts";
import type { FontLibrary } from "./fonts.ts";
import type { IconLibrary } from "./icons.ts";
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
  scale: number;
  /** One paint reused by every shape and layer of the engine; painters set every property they rely on. */
  paint: Paint;
  /** Paints child layers (a group's) with every common property applied; `path` is the parent's JSON path. */
  paintLayers(layers: readonly Layer[], path: string): void;
}
