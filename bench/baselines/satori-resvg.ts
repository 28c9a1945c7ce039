import { Resvg } from "@resvg/resvg-js";
import satori from "satori";
import { type SceneValues, satoriScene } from "../lib/scene-markup.ts";

export interface TtfFace {
  name: string;
  weight: 400 | 700;
  bytes: Uint8Array;
}

/**
 * Baseline (b): satori lays the scene out to SVG, resvg rasterises and encodes PNG. The photo is a
 * data: URI, so resvg decodes and resamples it on every render: that is how this stack runs.
 */
export function satoriResvgRenderer(faces: TtfFace[]): (values: SceneValues) => Promise<Uint8Array> {
  const fonts = faces.map((f) => ({
    name: f.name,
    weight: f.weight,
    style: "normal" as const,
    data: f.bytes.buffer.slice(f.bytes.byteOffset, f.bytes.byteOffset + f.bytes.byteLength) as ArrayBuffer,
  }));
  return async (values) => {
    // satori's types want a ReactNode; the plain { type, props } tree is what JSX compiles to.
    const svg = await satori(satoriScene(values) as never, { width: 1200, height: 630, fonts });
    const png = new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
    return new Uint8Array(png);
  };
}
