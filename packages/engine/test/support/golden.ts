import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RenderResult } from "@pictor/engine";
import sharp, { type Sharp } from "sharp";

const engineRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const goldenRoot = join(engineRoot, "test", "goldens");
const outputRoot = join(engineRoot, "..", "..", "test-output", "engine");
/** `npm run golden:update`: compareGolden (re)writes goldens instead of comparing. */
export const updatingGoldens = process.env.PICTOR_UPDATE_GOLDENS === "1";

/** Where a mismatch of `goldens/<feature>/…` leaves its actual and diff images. */
export function goldenOutputDir(feature: string): string {
  return join(outputRoot, feature);
}

/**
 * Straight RGBA from the engine's premultiplied pixels. PNG stores straight alpha; the conversion is
 * deterministic, so equal straight bytes mean the render did not change (opaque pixels are identical
 * in both forms).
 */
export function unpremultiply(pixels: Uint8Array): Uint8Array {
  const out = new Uint8Array(pixels.length);
  for (let i = 0; i < pixels.length; i += 4) {
    const a = pixels[i + 3] ?? 0;
    out[i + 3] = a;
    if (a === 0) continue;
    for (let c = 0; c < 3; c++) out[i + c] = Math.min(255, Math.round(((pixels[i + c] ?? 0) * 255) / a));
  }
  return out;
}

function png(rgba: Uint8Array, width: number, height: number): Sharp {
  return sharp(rgba, { raw: { width, height, channels: 4 } }).png({ compressionLevel: 9 });
}

export interface GoldenOutcome {
  /** Pixels that differ from the committed golden (0 when equal or just written). */
  differing: number;
  message: string;
}

/**
 * Compares a render with `goldens/<feature>/<name>.png` byte for byte; with PICTOR_UPDATE_GOLDENS=1
 * (re)writes it instead. On mismatch writes `<name>.actual.png` and `<name>.diff.png` (differing
 * pixels red) under test-output/engine/<feature>/.
 */
export async function compareGolden(
  result: RenderResult,
  feature: string,
  name: string,
): Promise<GoldenOutcome> {
  const { width, height } = result;
  const actual = unpremultiply(result.pixels);
  const file = join(goldenRoot, feature, `${name}.png`);
  if (updatingGoldens || !existsSync(file)) {
    if (!updatingGoldens)
      return { differing: -1, message: `missing golden ${file}; run npm run golden:update` };
    await mkdir(dirname(file), { recursive: true });
    await png(actual, width, height).toFile(file);
    return { differing: 0, message: `wrote ${file}` };
  }
  const { data, info } = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== width || info.height !== height) {
    return {
      differing: -1,
      message: `size ${width}x${height} differs from golden ${info.width}x${info.height}`,
    };
  }
  const diff = new Uint8Array(actual.length);
  let differing = 0;
  for (let i = 0; i < actual.length; i += 4) {
    const same =
      actual[i] === data[i] &&
      actual[i + 1] === data[i + 1] &&
      actual[i + 2] === data[i + 2] &&
      actual[i + 3] === data[i + 3];
    if (same) {
      diff[i] = diff[i + 1] = diff[i + 2] = Math.round((actual[i] ?? 0) * 0.3);
      diff[i + 3] = 255;
    } else {
      differing++;
      diff[i] = 255;
      diff[i + 3] = 255;
    }
  }
  if (differing === 0) return { differing, message: "identical" };
  const outDir = goldenOutputDir(feature);
  await mkdir(outDir, { recursive: true });
  await png(actual, width, height).toFile(join(outDir, `${name}.actual.png`));
  await png(diff, width, height).toFile(join(outDir, `${name}.diff.png`));
  return { differing, message: `${differing} pixel(s) differ from ${file}; see ${outDir}` };
}
