import { Renderer } from "@takumi-rs/core";
import { type SceneValues, takumiScene } from "../lib/scene-markup.ts";
import type { TtfFace } from "./satori-resvg.ts";

export interface TakumiRender {
  /** PNG bytes of the reference scene; `photo` is the JPEG to draw (new bytes mean a fresh decode). */
  (
    values: Omit<SceneValues, "photo">,
    photo: Uint8Array,
    options?: { scale?: number; fresh?: boolean },
  ): Promise<Uint8Array>;
}

/**
 * Baseline (d): Takumi (native Rust through napi), the fastest open-source peer. The scene is the
 * reference scene as a Takumi node tree (scene-markup.ts). A photo rendered again is served from
 * Takumi's own decoded-image cache unless `fresh` asks it to skip that cache, as a new photo would.
 */
export async function takumiRenderer(faces: TtfFace[]): Promise<TakumiRender> {
  const renderer = new Renderer();
  for (const face of faces) {
    await renderer.registerFont({ name: face.name, weight: face.weight, style: "normal", data: face.bytes });
  }
  return async (values, photo, { scale = 1, fresh = false } = {}) => {
    const src = fresh ? "photo-fresh.jpg" : "photo.jpg";
    const png = await renderer.render(takumiScene(values, src) as never, {
      // Takumi's width and height are output pixels; the ratio scales the CSS pixels into them.
      width: 1200 * scale,
      height: 630 * scale,
      format: "png",
      devicePixelRatio: scale,
      images: [{ src, data: photo, cache: fresh ? "none" : "auto" }],
    });
    return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  };
}
