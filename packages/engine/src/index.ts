export type * from "./api.ts";
export * from "./document/schema.ts";
export { createEngine, type EngineSetup } from "./render/engine.ts";
export { EngineError, type EngineErrorCode } from "./render/errors.ts";
