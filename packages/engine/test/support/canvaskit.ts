import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { CanvasKit, CanvasKitInitOptions } from "canvaskit-wasm";

const require = createRequire(import.meta.url);
// canvaskit-wasm is CommonJS whose typings declare an ES default export; require gets the function.
const CanvasKitInit = require("canvaskit-wasm") as (options: CanvasKitInitOptions) => Promise<CanvasKit>;
const binDir = join(dirname(require.resolve("canvaskit-wasm/package.json")), "bin");

let instance: Promise<CanvasKit> | undefined;

/** The CanvasKit of this test worker, loaded once from node_modules/canvaskit-wasm/bin. */
export function loadCanvasKit(): Promise<CanvasKit> {
  const loading = instance ?? CanvasKitInit({ locateFile: (file: string) => join(binDir, file) });
  instance = loading;
  return loading;
}
