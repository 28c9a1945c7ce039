/** The box an editor image is fitted to, as POST /v1/editor/prepare-image names it. */
export interface EditorImageTarget {
  width: number;
  height: number;
  fit: "cover" | "contain" | "fill";
  focal: { x: number; y: number };
}

export type PreparedEditorImage =
  | { ok: true; width: number; height: number; rgba: Uint8Array; upscaled: boolean }
  | { ok: false; code: "image_invalid" | "internal_error"; message: string };

/**
 * Fits an account's image bytes to a box as straight RGBA, with the renderers' pipeline, off the
 * API's thread: on the render threads, placed by the account's share of render time.
 */
export interface EditorImagePreparer {
  prepare(
    accountId: string,
    bytes: Uint8Array,
    target: EditorImageTarget,
    src: string,
  ): Promise<PreparedEditorImage>;
}
