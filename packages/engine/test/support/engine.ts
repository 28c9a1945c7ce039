import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Engine, IconSet, IconShape } from "@pictor/engine";
import { createEngine, iconSetFromNodes } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { loadCanvasKit } from "./canvaskit.ts";

const require = createRequire(import.meta.url);

let engine: Promise<Engine> | undefined;
let icons: Promise<IconSet> | undefined;

/** The shipped icon data (lucide-static's icon-nodes.json), parsed as every host parses it. */
export function loadTestIcons(): Promise<IconSet> {
  icons ??= readFile(require.resolve("lucide-static/icon-nodes.json"), "utf8").then((text) =>
    iconSetFromNodes(JSON.parse(text) as Record<string, IconShape>),
  );
  return icons;
}

/** One engine per test worker with the shipped font set and icons, as a render worker thread has. */
export function testEngine(): Promise<Engine> {
  engine ??= (async () =>
    createEngine({
      canvasKit: await loadCanvasKit(),
      fonts: await loadFontSet(),
      icons: await loadTestIcons(),
    }))();
  return engine;
}
