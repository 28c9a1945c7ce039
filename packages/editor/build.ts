import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildBrowserBundle } from "../engine/browser/build.ts";

const root = dirname(fileURLToPath(import.meta.url));
/** The editor users download: what `npm run build` writes and `pictor serve` serves. */
export const editorDistDir = join(root, "dist");
/** The test entry's build (the same app plus `window.__pictor`), for the end-to-end tests. */
export const editorTestDistDir = join(root, "dist-test");

export interface BuildOptions {
  /** Build the test entry (testing/entry.ts, with the test bridge) into dist-test/ instead. */
  testBridge?: boolean;
  /** Another output directory (the bundle test builds into a temporary one). */
  outDir?: string;
  /** Only the editor app, not the engine bundle. */
  appOnly?: boolean;
}

/**
 * Builds what the server serves for the editor: the engine's browser bundle (esbuild, into
 * packages/engine/dist) and the editor app (Vite, into packages/editor/dist). Used by `npm run
 * build`, and by `pictor serve` at start when the bundle is missing or older than its sources.
 */
export async function buildEditor(options: BuildOptions = {}): Promise<void> {
  if (!options.appOnly) await buildBrowserBundle();
  const { build } = await import("vite");
  // The mode names the test entry; vite.config.ts picks the entry and dist-test/ from it.
  const { TEST_BRIDGE_MODE } = await import("./vite.config.ts");
  await build({
    configFile: join(root, "vite.config.ts"),
    root,
    mode: options.testBridge ? TEST_BRIDGE_MODE : "production",
    ...(options.outDir ? { build: { outDir: options.outDir, emptyOutDir: true } } : {}),
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const testBridge = process.argv.includes("--test-bridge");
  await buildEditor({ testBridge });
  console.log(`editor built: ${testBridge ? editorTestDistDir : editorDistDir}`);
}
