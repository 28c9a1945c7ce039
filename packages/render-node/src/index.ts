export { frameDelays } from "./animated-image.ts";
export {
  ANIMATED_CONTENT_TYPES,
  ANIMATED_IMAGE_PIXEL_BUDGET,
  type AnimatedFormat,
} from "./animated-output.ts";
export { createCanvasKit, loadCanvasKit, wasmHeapBytes } from "./canvaskit.ts";
export { collectGarbage } from "./collect-garbage.ts";
export {
  CONTENT_TYPES,
  DEFAULT_QUALITY,
  type EncodedImage,
  type EncodeOptions,
  encodeImage,
  type OutputFormat,
  type PixelFrame,
  type PngOptimize,
} from "./encode.ts";
export {
  type DocumentIssue,
  ImageFetchError,
  ImageInvalidError,
  type ImageOrigin,
  ImageTooLargeError,
  InvalidDocumentError,
  InvalidSlotValuesError,
  RenderError,
  type RenderErrorCode,
  type SlotValueIssue,
} from "./errors.ts";
export { findFfmpeg } from "./ffmpeg.ts";
export { loadIconSet } from "./icons.ts";
export { PreparedImageCache } from "./image-cache.ts";
export { type NativeWork, oneAtATime, runAtOnce } from "./native-work.ts";
export {
  DEFAULT_PDF_DPI,
  PdfAssembler,
  type PdfMetadata,
  type PdfPageOptions,
  pixelsToPoints,
} from "./pdf.ts";
export {
  coverRegion,
  DEFAULT_IMAGE_LIMITS,
  type ImageLimits,
  type PrepareTarget,
  prepareImage,
} from "./prepare-image.ts";
export {
  createNodeRenderer,
  type ImageLoader,
  type NodeMeasureOptions,
  type NodeRenderAnimationOptions,
  type NodeRenderAnimationResult,
  type NodeRenderer,
  type NodeRendererOptions,
  type NodeRenderOptions,
  type NodeRenderPdfOptions,
  type NodeRenderPdfResult,
  type NodeRenderResult,
} from "./renderer.ts";
export { type Sniffed, sniffImage } from "./sniff.ts";
