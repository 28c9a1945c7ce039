export { ease } from "./animation/easing.ts";
export { ANIMATION_PRESET_KINDS } from "./animation/presets/registry.ts";
export {
  documentAt,
  frameCount,
  frameTimes,
  isAnimatedFrame,
  type Moment,
  posterTime,
} from "./animation/timeline.ts";
export type * from "./api.ts";
export {
  ANIMATION_PRESETS,
  type AnimationPresetName,
  DEFAULT_FPS,
  type EasingT,
  KEYFRAME_PROPERTIES,
  type KeyframeT,
  type LayerAnimationT,
  MAX_DURATION_SECONDS,
  MAX_FPS,
} from "./document/animation.ts";
export { BLEND_MODES, ColorBinding, type ColorBindingT } from "./document/common.ts";
export {
  documentFontFamilies,
  renameFontFamilies,
  restoreFontFamilyNames,
} from "./document/font-families.ts";
export {
  InlineStyle,
  InlineStyles,
  type InlineStylesT,
  type InlineStyleT,
  inlineStyleNames,
  MAX_INLINE_STYLES,
} from "./document/inline-styles.ts";
export {
  CURRENT_VERSION,
  type Migration,
  type MigrationResult,
  migrateDocument,
  migrations,
} from "./document/migrate.ts";
export {
  FramePrint,
  type FramePrintT,
  PAGE_SIZES_MM,
  type PrintGeometry,
  printGeometry,
  printPixelSize,
} from "./document/print.ts";
export { ITEM_PREFIX, Repeat, type RepeatT } from "./document/repeat.ts";
export {
  BUILT_IN_TAGS,
  parseRichText,
  plainTextOf,
  type RichRun,
  type RichTextResult,
} from "./document/rich-text.ts";
export * from "./document/schema.ts";
export {
  type DocumentValidationResult,
  formatValidationErrors,
  type ValidationError,
  validateDocument,
} from "./document/validate.ts";
export { BINDABLE_PROPERTIES, MAX_GROUP_DEPTH } from "./document/validate-semantics.ts";
export { MAX_JSON_DEPTH as MAX_DOCUMENT_JSON_DEPTH } from "./document/validate-structure.ts";
export { LocaleTag, ValueFormat, type ValueFormatT } from "./document/value-format.ts";
export {
  MAX_TEXT_LENGTH,
  type SlotValueError,
  type SlotValueErrorKind,
  type SlotValuesResult,
  validateSlotValues,
} from "./document/values.ts";
export { formatDate, formatNumber } from "./format/format-value.ts";
export { FORMAT_LOCALES } from "./format/locales.ts";
export { checkRenderValues } from "./render/check-values.ts";
export {
  CANVASKIT_HEAP_BASE_BYTES,
  CANVASKIT_HEAP_LIMIT_BYTES,
  type CostOptions,
  estimateFrameCost,
  type FrameCost,
  type LayerCost,
} from "./render/cost.ts";
export { createEngine, type EngineSetup } from "./render/engine.ts";
export { EngineError, type EngineErrorCode } from "./render/errors.ts";
export { frameImages } from "./render/frame-images.ts";
export { iconSetFromNodes } from "./render/icons.ts";
