/** Codes of the errors the engine throws for input it cannot render. */
export type EngineErrorCode =
  | "invalid_scale"
  | "frame_not_found"
  | "invalid_color"
  | "image_size_mismatch"
  /** The host supplied no data for an icon the document names (engine created without `icons`). */
  | "icon_unavailable"
  /** A code layer met a value its symbology cannot encode (checked before rendering; see checkRenderValues). */
  | "value_not_encodable"
  /** Rich text whose markup does not parse (validation refuses such values before rendering). */
  | "invalid_markup"
  /** A `{ layer }` mask names no sibling layer with an outline (validation refuses such documents). */
  | "invalid_mask"
  /** A document past a limit validation enforces (a stack with too many children). */
  | "invalid_document";

/**
 * Bad render input. `path` is the JSON path of the offending value (e.g. `scale`,
 * `values.brand`, `frames[0].layers[2].fill`) so hosts can report it verbatim.
 */
export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly path: string;

  constructor(code: EngineErrorCode, path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = "EngineError";
    this.code = code;
    this.path = path;
  }
}
