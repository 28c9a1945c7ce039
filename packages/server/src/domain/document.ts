// The one place the server names the engine's document model.
export type { SlotT, TemplateDocumentT } from "@pictor/engine";
export { checkRenderValues, validateDocument, validateSlotValues } from "@pictor/engine";
