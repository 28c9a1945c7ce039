/**
 * Entry of the browser bundle: the engine plus the canvaskit-wasm loader in one ESM file. The page
 * passes `locateFile` to CanvasKitInit so it loads the very same `canvaskit.wasm` file Node loads;
 * that shared binary is what makes editor and API pixels identical.
 */
import CanvasKitInit from "canvaskit-wasm";

export * from "../src/index.ts";
export { CanvasKitInit };
