import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const engineDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface BrowserBundle {
  /** The ESM bundle: exports `CanvasKitInit`, `createEngine` and the rest of `@pictor/engine`. */
  bundleFile: string;
  /** The wasm binary the page must load via `locateFile`: the same file Node's canvaskit loads. */
  wasmFile: string;
}

/** canvaskit's Emscripten glue calls require("fs"/"path") only on its Node code path; the browser never reaches it. */
const emptyNodeBuiltins: Plugin = {
  name: "empty-node-builtins",
  setup(b) {
    b.onResolve({ filter: /^(node:)?(fs|path)$/ }, (args) => ({
      path: args.path,
      namespace: "empty-builtin",
    }));
    b.onLoad({ filter: /.*/, namespace: "empty-builtin" }, () => ({
      contents: "module.exports = {};",
      loader: "js",
    }));
  },
};

/** The wasm next to the canvaskit JS that `import "canvaskit-wasm"` resolves to (bin/canvaskit.js). */
export function canvasKitWasmFile(): string {
  const require = createRequire(join(engineDir, "package.json"));
  return join(dirname(require.resolve("canvaskit-wasm")), "canvaskit.wasm");
}

export async function buildBrowserBundle(outDir = join(engineDir, "dist")): Promise<BrowserBundle> {
  await mkdir(outDir, { recursive: true });
  const bundleFile = join(outDir, "pictor-engine.browser.js");
  await build({
    entryPoints: [join(engineDir, "browser", "entry.ts")],
    outfile: bundleFile,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // Readable output: the bundle is served from our own origin and debugged in the editor.
    minify: false,
    sourcemap: true,
    logLevel: "warning",
    plugins: [emptyNodeBuiltins],
  });
  return { bundleFile, wasmFile: canvasKitWasmFile() };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { bundleFile, wasmFile } = await buildBrowserBundle();
  console.log(`bundle: ${bundleFile}\nwasm:   ${wasmFile}`);
}
