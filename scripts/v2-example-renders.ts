/**
 * Records packages/render-node/test/fixtures/v2-example-renders.json: the SHA-256 of what the engine of
 * commit b1c8e8e (the last before document v3) draws for every example template (v1 and v2), every
 * frame, at scales 1 and 2. Run once from a checkout of that commit:
 *
 *   PICTOR_CHECKOUT="$PWD" node scripts/v2-example-renders.ts
 *
 * packages/render-node/test/v2-identity.test.ts then requires today's engine to draw the same bytes
 * after migrating each example to the current version.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createEngine, validateDocument } from "../packages/engine/src/index.ts";
import { loadFontSet } from "../packages/fonts/src/index.ts";
import { loadCanvasKit } from "../packages/render-node/src/canvaskit.ts";
import { loadIconSet } from "../packages/render-node/src/icons.ts";
import { prepareImage } from "../packages/render-node/src/prepare-image.ts";

const checkout = process.env.PICTOR_CHECKOUT ?? "/work/main";
const templatesDir = `${checkout}/examples/templates`;
const out = `${checkout}/packages/render-node/test/fixtures/v2-example-renders.json`;
const hashes: Record<string, string> = {};
const engine = createEngine({
  canvasKit: await loadCanvasKit(),
  fonts: await loadFontSet(),
  icons: await loadIconSet(),
});
for (const file of readdirSync(templatesDir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const checked = validateDocument(JSON.parse(readFileSync(join(templatesDir, file), "utf8")));
  if (!checked.ok) throw new Error(file);
  const doc = checked.document;
  for (const frame of doc.frames) {
    for (const scale of [1, 2]) {
      const options = { frame: frame.name, values: doc.sample ?? {}, scale };
      const images = new Map();
      for (const request of engine.planImages(doc, options)) {
        const bytes = new Uint8Array(await readFile(resolve(templatesDir, request.src)));
        images.set(request.key, await prepareImage(bytes, request));
      }
      const r = engine.render(doc, { ...options, images });
      const name = `${file.replace(/\.json$/, "")}#${frame.name}@${scale}`;
      hashes[name] = createHash("sha256").update(r.pixels).digest("hex");
      console.log(name);
    }
  }
}
writeFileSync(
  out,
  `${JSON.stringify({ engine: "b1c8e8e (the last commit before document v3)", pixels: "SHA-256 of the premultiplied RGBA", renders: hashes }, null, 2)}\n`,
);
