import sharp from "sharp";
import { unpremultiply } from "./golden.ts";

/**
 * A render's pixels as a scanner would get them: encoded as PNG or JPEG (quality 90, as the API's
 * default JPEG) with sharp, then decoded back to straight RGBA.
 */
export async function throughFormat(
  render: { pixels: Uint8Array; width: number; height: number },
  format: "png" | "jpeg",
): Promise<{ pixels: Uint8Array; width: number; height: number }> {
  const raw = sharp(Buffer.from(unpremultiply(render.pixels)), {
    raw: { width: render.width, height: render.height, channels: 4 },
  });
  const encoded = await (format === "png" ? raw.png() : raw.jpeg({ quality: 90 })).toBuffer();
  const { data, info } = await sharp(encoded).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { pixels: new Uint8Array(data), width: info.width, height: info.height };
}
