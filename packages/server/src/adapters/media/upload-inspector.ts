import type { Inspection, UploadInspector } from "../../ports/upload-inspector.ts";
import { checkFontWithEngine } from "./font-check.ts";
import { decodeFont, FontFileError } from "./font-file.ts";
import { ImageFileError, inspectImage } from "./image-file.ts";

/**
 * Uploads read with the render path's own libraries: sharp (same sniffing, limits and decoder
 * options as a fetched image_url), our sfnt reader with wawoff2 for WOFF2, then CanvasKit as the
 * final judge of a font. Their refusals become answers; any other error propagates.
 */
export function createMediaUploadInspector(): UploadInspector {
  return {
    async inspectImage(bytes) {
      try {
        return { ok: true, file: await inspectImage(bytes) };
      } catch (error) {
        if (error instanceof ImageFileError) return refused(error.message, error.tooLarge);
        throw error;
      }
    },
    async inspectFont(bytes) {
      try {
        const decoded = await decodeFont(bytes);
        await checkFontWithEngine(decoded.sfnt);
        const { family, weight, style } = decoded;
        return {
          ok: true,
          file: { sfnt: decoded.sfnt, contentType: decoded.contentType, info: { family, weight, style } },
        };
      } catch (error) {
        // A font too big once decompressed is still a bad font file (422 font_invalid, docs/assets.md).
        if (error instanceof FontFileError) return refused(error.message, false);
        throw error;
      }
    },
  };
}

const refused = (reason: string, tooLarge: boolean): Inspection<never> => ({
  ok: false,
  refusal: { reason, tooLarge },
});
