/**
 * Shared by scripts/v<N>-example-renders.ts: records the SHA-256 of what an old engine draws for the
 * example templates, every frame, at scales 1 and 2, into a render-node test fixture. Only imports
 * what every recorded commit already had, since it runs from a checkout of that commit.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type createEngine, validateDocument } from "../packages/engine/src/index.ts";
import { prepareImage } from "../packages/render-node/src/prepare-image.ts";

export interface ExampleRenders {
  readonly engine: ReturnType<typeof createEngine>;
  /** File name under packages/render-node/test/fixtures. */
  readonly fixture: string;
  /** The commit the engine is from, as the fixture states it. */
  readonly engineLabel: string;
  /** Which examples to draw, by their document before validation. */
  readonly includes: (raw: { version?: unknown }) => boolean;
}

export async function recordExampleRenders({ engine, fixture, engineLabel, includes }: ExampleRenders) {
  const checkout = process.env.PICTOR_CHECKOUT ?? "/work/main";
  const templatesDir = `${checkout}/examples/templates`;
  const out = `${checkout}/packages/render-node/test/fixtures/${fixture}`;
  const hashes: Record<string, string> = {};
  for (const file of readdirSync(templatesDir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const raw = JSON.parse(readFileSync(join(templatesDir, file), "utf8"));
    if (!includes(raw)) continue;
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
    `${JSON.stringify({ engine: engineLabel, pixels: "SHA-256 of the premultiplied RGBA", renders: hashes }, null, 2)}\n`,
  );
}
