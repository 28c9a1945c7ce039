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
  canvasKit ??= createCanvasKit().catch((error: unknown) => {
    canvasKit = undefined;
    throw error;
  });
  return canvasKit;
}

/**
 * A CanvasKit instance of its own, with a fresh WebAssembly heap. A wasm heap never shrinks: memory
 * a large render touched stays resident until the instance is dropped, so a renderer that drew a
 * very large frame moves to a new instance once idle (renderer.ts) and lets the old one be collected.
 */
export async function createCanvasKit(): Promise<CanvasKit> {
  // The glue script is loaded afresh for every instance. Instances made from one copy share its
  // functions' optimised code, and V8's optimised code of a new instance's function kept a reference
  // to an old instance's wasm export: the old 128 MB heap stayed alive after a recycle.
  delete require.cache[require.resolve("canvaskit-wasm")];
  const init = require("canvaskit-wasm") as CanvasKitInit;
  const bin = dirname(require.resolve("canvaskit-wasm/bin/canvaskit.wasm"));
  return init({ locateFile: (file) => `${bin}/${file}` });
}

/** Drops the thread's shared instance if it is `kit`, so it can be collected once nobody else holds it. */
export function forgetCanvasKit(kit: CanvasKit): void {
  void canvasKit?.then((shared) => {
    if (shared === kit) canvasKit = undefined;
  });
}

/** Bytes the instance's WebAssembly heap spans (grown, never shrunk). */
export function wasmHeapBytes(kit: CanvasKit): number {
  return (kit as unknown as { HEAPU8?: Uint8Array }).HEAPU8?.buffer.byteLength ?? 0;
}

/**
 * The buffer of the instance's WebAssembly heap as it spans now: alive as long as the heap's memory
 * is (a weak reference to it tells when a dropped instance's heap was collected).
 */
export function wasmHeapBuffer(kit: CanvasKit): ArrayBufferLike {
  return (kit as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer;
}
