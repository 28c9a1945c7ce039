import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildBrowserBundle } from "../engine/browser/build.ts";

const root = dirname(fileURLToPath(import.meta.url));
export const editorDistDir = join(root, "dist");

/**
 * Builds what the server serves for the editor: the engine's browser bundle (esbuild, into
 * packages/engine/dist) and the editor app (Vite, into packages/editor/dist). Used by `npm run
 * build` and, on first request, by `pictor serve` when a checkout was never built.
 */
export async function buildEditor(): Promise<void> {
  await buildBrowserBundle();
  const { build } = await import("vite");
  await build({ configFile: join(root, "vite.config.ts"), root });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await buildEditor();
  console.log(`editor built: ${editorDistDir}`);
}
