import { promisify } from "node:util";
import { deflate, deflateSync } from "node:zlib";
import sharp from "sharp";
import { encodeImage, type PixelFrame } from "./encode.ts";
import { packRgb } from "./frame-copies.ts";
import { type NativeWork, runAtOnce } from "./native-work.ts";
import { PdfAssembler as PagesAssembler, type PdfCodec, type PdfMetadata } from "./pdf-assembler.ts";

export {
  DEFAULT_PDF_DPI,
  framePageOptions,
  type PdfMetadata,
  type PdfPageOptions,
  pixelsToPoints,
} from "./pdf-assembler.ts";

const deflateAsync = promisify(deflate);

/** Pages encoded by sharp and Node's zlib. */
const NODE_CODEC: PdfCodec = {
  opaqueRgb,
  flate: (bytes, level) => deflateAsync(bytes, { level }),
  jpeg: async (frame, quality) => (await encodeImage(frame, { format: "jpeg", quality })).bytes,
};

/**
 * The PDF assembler of the render workers (pdf-assembler.ts), encoding with sharp and zlib, as
 * `native` says (native-work.ts): zlib on the render thread itself when it is to run inline.
 */
export class PdfAssembler extends PagesAssembler {
  constructor(metadata: PdfMetadata, native: NativeWork = runAtOnce) {
    super(
      metadata,
      native === runAtOnce
        ? NODE_CODEC
        : {
            opaqueRgb: (frame) => native.run(() => NODE_CODEC.opaqueRgb(frame)),
            flate: native.inline
              ? async (bytes, level) => deflateSync(bytes, { level })
              : (bytes, level) => native.run(() => NODE_CODEC.flate(bytes, level)),
            jpeg: (frame, quality) => native.run(() => NODE_CODEC.jpeg(frame, quality)),
          },
    );
  }
}

/** RGB bytes of engine pixels: opaque ones lose their alpha, translucent ones are shown over white. */
async function opaqueRgb(frame: PixelFrame): Promise<Buffer> {
  const { width, height, pixels, opaque } = frame;
  if (pixels.byteLength !== width * height * 4) {
    throw new RangeError(`expected ${width * height * 4} bytes for ${width}x${height} RGBA`);
  }
  if (opaque) return Buffer.from(packRgb(pixels, new Uint8Array(width * height * 3)).buffer);
  const input = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  const image = sharp(input, { raw: { width, height, channels: 4, premultiplied: true } });
  return image.flatten({ background: "#ffffff" }).raw().toBuffer();
}
