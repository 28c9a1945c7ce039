import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { validateDocument } from "@pictor/engine";
import { createNodeRenderer } from "@pictor/render-node";

/**
 * Renders the first frame of every example template (with its sample values, at scale 1) to
 * docs/examples/<key>.png: the pictures the README shows. The engine and the shipped fonts draw them,
 * exactly as `pictor render` would.
 *
 *   node scripts/render-example-pictures.ts [key ...]
 */

const root = fileURLToPath(new URL("..", import.meta.url));
const templatesDir = join(root, "examples/templates");
const outDir = join(root, "docs/examples");

const wanted = new Set(process.argv.slice(2));
const renderer = await createNodeRenderer();
mkdirSync(outDir, { recursive: true });
for (const file of readdirSync(templatesDir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const checked = validateDocument(JSON.parse(readFileSync(join(templatesDir, file), "utf8")));
  if (!checked.ok) throw new Error(`${file}: ${JSON.stringify(checked.errors)}`);
  const document = checked.document;
  if (wanted.size > 0 && !wanted.has(document.key)) continue;
  const result = await renderer.render(document, {
    values: document.sample ?? {},
    format: "png",
    // Sample images are paths relative to the template file (templates-as-code).
    loadImage: async (src) => new Uint8Array(await readFile(resolve(dirname(join(templatesDir, file)), src))),
  });
  const out = join(outDir, `${document.key}.png`);
  writeFileSync(out, result.bytes);
  const warnings = result.warnings.map((w) => w.code).join(", ");
  console.log(`wrote ${out}${warnings ? ` (warnings: ${warnings})` : ""}`);
}
renderer.dispose();
