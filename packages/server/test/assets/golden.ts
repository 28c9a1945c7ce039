import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const here = dirname(fileURLToPath(import.meta.url));
const outputRoot = join(here, "..", "..", "..", "..", "test-output", "server", "assets");

/**
 * Compares encoded PNG output with `goldens/<name>.png` pixel for pixel (decoded RGBA, so encoder
 * settings do not matter). PICTOR_UPDATE_GOLDENS=1 (re)writes the golden. On mismatch the actual
 * image is written under test-output/server/assets/. Returns the number of differing pixels.
 */
export async function differingPixels(png: Uint8Array, name: string): Promise<number> {
  const file = join(here, "goldens", `${name}.png`);
  const actual = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (process.env.PICTOR_UPDATE_GOLDENS === "1" || !existsSync(file)) {
    if (process.env.PICTOR_UPDATE_GOLDENS !== "1") throw new Error(`missing golden ${file}`);
    await sharp(png).png({ compressionLevel: 9 }).toFile(file);
    return 0;
  }
  const golden = await sharp(file).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (golden.info.width !== actual.info.width || golden.info.height !== actual.info.height) return -1;
  let differing = 0;
  for (let i = 0; i < actual.data.length; i += 4) {
    if (actual.data.readUInt32BE(i) !== golden.data.readUInt32BE(i)) differing++;
  }
  if (differing > 0) {
    await mkdir(outputRoot, { recursive: true });
    await sharp(png).toFile(join(outputRoot, `${name}.actual.png`));
  }
  return differing;
}

/** Pixels that differ between two encoded images of the same size. */
export async function pixelsBetween(a: Uint8Array, b: Uint8Array): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((p) => sharp(p).ensureAlpha().raw().toBuffer()));
  if (!x || !y || x.length !== y.length) return -1;
  let differing = 0;
  for (let i = 0; i < x.length; i += 4) if (x.readUInt32BE(i) !== y.readUInt32BE(i)) differing++;
  return differing;
}
