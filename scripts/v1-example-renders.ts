/**
 * Records packages/render-node/test/fixtures/v1-example-renders.json: the SHA-256 of what the engine of
 * commit 36d9774 (the last before document v2) draws for every v1 example, every frame, at scales 1
 * and 2. Run once from a worktree of that commit, which shares this checkout's node_modules:
 *
 *   git worktree add /tmp/v1tree 36d9774 && ln -s "$PWD/node_modules" /tmp/v1tree/node_modules
 *   cp scripts/v1-example-renders.ts /tmp/v1tree/ && (cd /tmp/v1tree && PICTOR_CHECKOUT="$OLDPWD" node v1-example-renders.ts)
 *
 * packages/render-node/test/v1-identity.test.ts then requires today's engine to draw the same bytes.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createEngine, validateDocument } from "./packages/engine/src/index.ts";
import { loadFontSet } from "./packages/fonts/src/index.ts";
import { loadCanvasKit } from "./packages/render-node/src/canvaskit.ts";
import { prepareImage } from "./packages/render-node/src/prepare-image.ts";

const checkout = process.env.PICTOR_CHECKOUT ?? "/work/main";
const templatesDir = `${checkout}/examples/templates`;
const out = `${checkout}/packages/render-node/test/fixtures/v1-example-renders.json`;
const hashes: Record<string, string> = {};
const engine = createEngine({ canvasKit: await loadCanvasKit(), fonts: await loadFontSet() });
for (const file of readdirSync(templatesDir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const raw = JSON.parse(readFileSync(join(templatesDir, file), "utf8"));
  if (raw.version !== 1) continue;
  const checked = validateDocument(raw);
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
  `${JSON.stringify({ engine: "36d9774 (the last commit before document v2)", pixels: "SHA-256 of the premultiplied RGBA", renders: hashes }, null, 2)}\n`,
);
