/**
 * Types of the engine bundle the page imports at run time (packages/engine/browser/entry.ts). Type
 * only: nothing of @pictor/engine is bundled into the editor by Vite.
 */
import type * as EngineApi from "@pictor/engine";

export type {
  BarcodeLayerT,
  DropShadowT,
  Engine,
  FontFace,
  FrameT,
  GroupLayerT,
  IconLayerT,
  IconShape,
  ImageLayerT,
  ImageRequest,
  Layer,
  LineLayerT,
  MaskT,
  PaintT,
  PathLayerT,
  PolygonLayerT,
  PreparedImage,
  QrLayerT,
  RatingLayerT,
  RenderWarning,
  RichRun,
  ShapeLayerT,
  SlotT,
  SlotValues,
  StarLayerT,
  TemplateDocumentT,
  TextLayerT,
  VisibleWhenT,
} from "@pictor/engine";

export interface CanvasKitInitOptions {
  locateFile: (file: string) => string;
}

export type EngineModule = typeof EngineApi & {
  CanvasKitInit: (options: CanvasKitInitOptions) => Promise<import("canvaskit-wasm").CanvasKit>;
};
