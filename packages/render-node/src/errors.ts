/**
 * Typed failures of a render in the Node host. Each carries a stable `code` the HTTP layer maps to a
 * status (the codes match the API's vocabulary) and, for image failures, the slot and source that
 * caused them so the message can name them.
 */

export type RenderErrorCode =
  | "image_invalid"
  | "image_fetch_failed"
  | "invalid_document"
  | "unknown_slot"
  | "invalid_request"
  | "format_unavailable";

export class RenderError extends Error {
  readonly code: RenderErrorCode;

  constructor(code: RenderErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

export interface ImageOrigin {
  /** Slot the image came from, or null for a designer's own image. */
  slot: string | null;
  src: string;
}

function describe(origin: ImageOrigin | undefined): string {
  if (!origin) return "image";
  return origin.slot ? `image for slot "${origin.slot}" (${origin.src})` : `image ${origin.src}`;
}

/** The bytes are not an image we accept: corrupt, truncated, an unsupported format, SVG, PDF... */
export class ImageInvalidError extends RenderError {
  readonly slot: string | null;
  readonly src: string | null;

  constructor(reason: string, origin?: ImageOrigin, options?: ErrorOptions) {
    super("image_invalid", `${describe(origin)}: ${reason}`, options);
    this.slot = origin?.slot ?? null;
    this.src = origin?.src ?? null;
  }
}

/** Over the byte or pixel limit. Same API code as any other unusable image. */
export class ImageTooLargeError extends ImageInvalidError {}

/** The caller's loader could not deliver the bytes (missing file, network failure, refused URL). */
export class ImageFetchError extends RenderError {
  readonly slot: string | null;
  readonly src: string;

  constructor(reason: string, origin: ImageOrigin, options?: ErrorOptions) {
    super("image_fetch_failed", `${describe(origin)}: ${reason}`, options);
    this.slot = origin.slot;
    this.src = origin.src;
  }
}

export interface DocumentIssue {
  /** JSON path of the offending value, e.g. `frames[0].layers[2].font.size`. */
  path: string;
  message: string;
}

function summarise(issues: readonly DocumentIssue[], fallback: string): string {
  const first = issues[0];
  if (!first) return fallback;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return `${first.path === "" ? "" : `${first.path}: `}${first.message}${more}`;
}

/** The template document does not validate; `issues` name JSON paths inside it. */
export class InvalidDocumentError extends RenderError {
  readonly issues: DocumentIssue[];

  constructor(issues: DocumentIssue[]) {
    super("invalid_document", summarise(issues, "invalid template document"));
    this.issues = issues;
  }
}

export interface SlotValueIssue extends DocumentIssue {
  kind: "unknown_slot" | "invalid" | "unencodable";
  slot: string;
}

/** Slot values do not fit the template: `unknown_slot` if one names no slot, else `invalid_request`. */
export class InvalidSlotValuesError extends RenderError {
  readonly issues: SlotValueIssue[];

  constructor(issues: SlotValueIssue[]) {
    const unknown = issues.some((i) => i.kind === "unknown_slot");
    super(unknown ? "unknown_slot" : "invalid_request", summarise(issues, "invalid slot values"));
    this.issues = issues;
  }
}
