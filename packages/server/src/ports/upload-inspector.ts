import type { FontFaceInfo } from "../ports/asset-library.ts";

/** An uploaded image the renderer will accept, as its header and a trial decode describe it. */
export interface InspectedImage {
  contentType: "image/png" | "image/jpeg" | "image/webp" | "image/gif";
  width: number;
  height: number;
}

/** An uploaded font as it is stored: plain sfnt bytes (WOFF/WOFF2 unwrapped), which CanvasKit and browsers load. */
export interface InspectedFont {
  sfnt: Uint8Array;
  /** `font/ttf` (TrueType outlines) or `font/otf` (CFF outlines). */
  contentType: "font/ttf" | "font/otf";
  info: FontFaceInfo;
}

/** Why an upload is refused. `reason` is a sentence fragment for the API's message. */
export interface UploadRefusal {
  reason: string;
  /** Over a size limit (answered 413 for images); every other refusal is about the content. */
  tooLarge: boolean;
}

export type Inspection<T> = { ok: true; file: T } | { ok: false; refusal: UploadRefusal };

/**
 * Reads uploaded bytes the way the renderer will, so a file accepted into the library renders
 * later. A refusal is an answer, not an exception; a thrown error is a fault of the inspector itself.
 */
export interface UploadInspector {
  inspectImage(bytes: Uint8Array): Promise<Inspection<InspectedImage>>;
  inspectFont(bytes: Uint8Array): Promise<Inspection<InspectedFont>>;
}
