export type * from "./api.ts";
export * from "./document/schema.ts";
export {
  type DocumentValidationResult,
  formatValidationErrors,
  type ValidationError,
  validateDocument,
} from "./document/validate.ts";
export { type SlotValueError, type SlotValuesResult, validateSlotValues } from "./document/values.ts";
export { createEngine, type EngineSetup } from "./render/engine.ts";
export { EngineError, type EngineErrorCode } from "./render/errors.ts";
