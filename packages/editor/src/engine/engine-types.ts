/**
 * Types of the engine bundle the page imports at run time (packages/engine/browser/entry.ts). Type
 * only: nothing of @pictor/engine is bundled into the editor by Vite. A layer type's own type is
 * imported by its form (layer-forms/<type>.tsx) from @pictor/engine directly.
 */
import type * as EngineApi from "@pictor/engine";

export type {
  ConstraintsT,
  DrawnText,
  DropShadowT,
  Engine,
  FontFace,
  FrameT,
  GradientT,
  IconShape,
  ImageLayerT,
  ImageRequest,
  Layer,
  LayoutT,
  ListItemValue,
  ListSlotT,
  MaskT,
  PaintT,
  PreparedImage,
  RenderWarning,
  RichRun,
  SlotT,
  SlotValue,
  SlotValues,
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
