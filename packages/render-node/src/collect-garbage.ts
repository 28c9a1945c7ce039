import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | null = null;

/**
 * A full V8 collection, now. Node exposes `gc` only with `--expose-gc` at start, which a library cannot
 * ask of its host; V8 reads the flag when a context is created, so a fresh context has it. Used only
 * after the renderer drops a grown WebAssembly heap (rare, and idle by then) and by a host after it
 * let go of a large buffer (a render thread's editor image of tens of megabytes), never per render.
 */
export function collectGarbage(): void {
  if (gc === null) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
}
