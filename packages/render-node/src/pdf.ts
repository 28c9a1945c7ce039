import { promisify } from "node:util";
import { deflate } from "node:zlib";
import sharp from "sharp";
import { encodeImage, type PixelFrame } from "./encode.ts";
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

/** The PDF assembler of the render workers (pdf-assembler.ts), encoding with sharp and zlib. */
export class PdfAssembler extends PagesAssembler {
  constructor(metadata: PdfMetadata) {
    super(metadata, NODE_CODEC);
  }
}

/** RGB bytes of engine pixels: opaque ones lose their alpha, translucent ones are shown over white. */
async function opaqueRgb(frame: PixelFrame): Promise<Buffer> {
  const { width, height, pixels, opaque } = frame;
  if (pixels.byteLength !== width * height * 4) {
    throw new RangeError(`expected ${width * height * 4} bytes for ${width}x${height} RGBA`);
  }
  const input = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  const image = sharp(input, { raw: { width, height, channels: 4, premultiplied: !opaque } });
  const rgb = opaque ? image.removeAlpha() : image.flatten({ background: "#ffffff" });
  return rgb.raw().toBuffer();
}
