// The one place the server names the engine's document model.
export type { SlotT, SlotValue, SlotValueError, SlotValues, TemplateDocumentT } from "@pictor/engine";
export {
  checkRenderValues,
  frameCount,
  frameImages,
  MAX_DOCUMENT_JSON_DEPTH,
  migrateDocument,
  validateDocument,
  validateSlotValues,
} from "@pictor/engine";
