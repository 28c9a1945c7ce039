import type { Readable } from "node:stream";

/** The box an editor image is fitted to, as POST /v1/editor/prepare-image names it. */
export interface EditorImageTarget {
  width: number;
  height: number;
  fit: "cover" | "contain" | "fill";
  focal: { x: number; y: number };
}

/**
 * A fitted image: `rgba` streams its width x height x 4 bytes of straight RGBA as the reader reads
 * (never the whole image in memory); the caller must consume or destroy it.
 */
export type PreparedEditorImage =
  | { ok: true; width: number; height: number; rgba: Readable; upscaled: boolean }
  | { ok: false; code: "image_invalid" | "internal_error"; message: string };

/**
 * Fits an account's image bytes to a box as straight RGBA, with the renderers' pipeline, off the
 * API's thread (on the render threads, placed by the account's share of render time; in a process
 * without render threads, in a process of its own at background priority).
 */
export interface EditorImagePreparer {
  prepare(
    accountId: string,
    bytes: Uint8Array,
    target: EditorImageTarget,
    src: string,
  ): Promise<PreparedEditorImage>;
}
