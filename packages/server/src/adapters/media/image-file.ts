import type { ImageLimits } from "@pictor/render-node";
import type { InspectedImage } from "../../ports/upload-inspector.ts";

/** An upload that is not an image the renderer will accept; the message says why. */
export class ImageFileError extends Error {
  /** Over the byte limit (413); every other refusal is about the content (422). */
  readonly tooLarge: boolean;
  constructor(message: string, tooLarge = false) {
    super(message);
    this.tooLarge = tooLarge;
  }
}

/**
 * Formats an uploaded image may have: those the renderer decodes AND that have a permanent-URL
 * extension. AVIF, HEIF and TIFF decode too, but browsers show them unevenly; convert before uploading.
 */
const UPLOAD_TYPES = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
} as const;

/**
 * Checks uploaded image bytes exactly as a fetched `image_url` is checked before a render (same
 * sniffing, same byte and pixel limits, same decoder options), then decodes them once, so a file that
 * is accepted here renders later. SVG is refused by the sniffer: it can reference external files.
 */
export async function inspectImage(bytes: Uint8Array, givenLimits?: ImageLimits): Promise<InspectedImage> {
  // Loaded on the first upload, not at start: the API thread otherwise needs neither the render
  // package's modules nor sharp (docs/deploy.md, "Memory").
  const [{ DEFAULT_IMAGE_LIMITS, sniffImage }, { default: sharp }] = await Promise.all([
    import("@pictor/render-node"),
    import("sharp"),
  ]);
  const limits = givenLimits ?? DEFAULT_IMAGE_LIMITS;
  if (bytes.byteLength > limits.maxBytes) {
    throw new ImageFileError(`${bytes.byteLength} bytes is over the ${limits.maxBytes}-byte limit`, true);
  }
  const sniffed = sniffImage(bytes);
  if (sniffed.kind === "refused") throw new ImageFileError(sniffed.reason);
  const contentType = UPLOAD_TYPES[sniffed.format as keyof typeof UPLOAD_TYPES];
  if (!contentType) {
    throw new ImageFileError(
      `${sniffed.format.toUpperCase()} uploads are not accepted; send PNG, JPEG, WebP or GIF`,
    );
  }
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width: number;
  let height: number;
  try {
    const meta = await sharp(input, { failOn: "error", limitInputPixels: false, pages: 1 }).metadata();
    const swap = (meta.orientation ?? 1) >= 5;
    width = (swap ? meta.height : meta.width) ?? 0;
    height = (swap ? meta.width : meta.height) ?? 0;
  } catch (error) {
    throw new ImageFileError(`cannot read the image header (${firstLine(error)})`);
  }
  if (width < 1 || height < 1) throw new ImageFileError("the image has no pixels");
  if (width * height > limits.maxPixels) {
    throw new ImageFileError(
      `${width}x${height} is over the ${limits.maxPixels / 1_000_000}-megapixel limit`,
    );
  }
  try {
    // A full decode (into a tiny result) catches truncated and corrupt data now, not at render time.
    await sharp(input, { failOn: "error", limitInputPixels: limits.maxPixels, pages: 1 })
      .timeout({ seconds: limits.timeoutSeconds })
      .resize(8, 8, { fit: "fill" })
      .raw()
      .toBuffer();
  } catch (error) {
    throw new ImageFileError(`cannot decode the image (${firstLine(error)})`);
  }
  return { contentType, width, height };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]?.trim() || "unknown decoder error";
}
