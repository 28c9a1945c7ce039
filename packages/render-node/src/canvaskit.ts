import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { CanvasKit } from "canvaskit-wasm";

const require = createRequire(import.meta.url);

type CanvasKitInit = (options: { locateFile: (file: string) => string }) => Promise<CanvasKit>;

let canvasKit: Promise<CanvasKit> | undefined;

/**
 * CanvasKit for this thread, instantiated once (7.3 MB of wasm, 79 ms here); every engine in the
 * thread shares it. The default build is the one the editor loads, so Node and browser pixels match.
 */
export function loadCanvasKit(): Promise<CanvasKit> {
  canvasKit ??= (async () => {
    const init = require("canvaskit-wasm") as CanvasKitInit;
    const bin = dirname(require.resolve("canvaskit-wasm/bin/canvaskit.wasm"));
    return init({ locateFile: (file) => `${bin}/${file}` });
  })().catch((error: unknown) => {
    canvasKit = undefined;
    throw error;
  });
  return canvasKit;
}
