import type { Engine } from "@pictor/engine";
import { createEngine } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { loadCanvasKit } from "./canvaskit.ts";

let engine: Promise<Engine> | undefined;

/** One engine per test worker with the shipped font set, as a render worker thread has. */
export function testEngine(): Promise<Engine> {
  engine ??= (async () => createEngine({ canvasKit: await loadCanvasKit(), fonts: await loadFontSet() }))();
  return engine;
}
