import { FontFileError } from "./font-file.ts";

/**
 * The final word on a font is the engine's own parser: CanvasKit must make a typeface from the
 * bytes and find glyphs in it, or the upload is refused (a file that passes our table checks but
 * that Skia rejects would otherwise fail every render that names it). CanvasKit loads on the first
 * font upload only.
 */
export async function checkFontWithEngine(sfnt: Uint8Array): Promise<void> {
  // The render package is loaded on the first font upload, not at the API thread's start.
  const { loadCanvasKit } = await import("@pictor/render-node");
  const canvasKit = await loadCanvasKit();
  const copy = sfnt.slice().buffer;
  const typeface = canvasKit.Typeface.MakeTypefaceFromData(copy);
  if (!typeface) throw new FontFileError("the font engine cannot read this font file");
  typeface.delete();
}
