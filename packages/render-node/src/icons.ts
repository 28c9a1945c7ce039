import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type IconSet, type IconShape, iconSetFromNodes } from "@pictor/engine";

const require = createRequire(import.meta.url);

let icons: Promise<IconSet> | undefined;

/**
 * The icon data of icon layers, read once per thread from the installed lucide-static (the version
 * the engine's name list was generated from; the browser editor loads the very same
 * icon-nodes.json, so both draw identical icons).
 */
export function loadIconSet(): Promise<IconSet> {
  icons ??= readFile(require.resolve("lucide-static/icon-nodes.json"), "utf8")
    .then((text) => iconSetFromNodes(JSON.parse(text) as Record<string, IconShape>))
    .catch((error: unknown) => {
      icons = undefined;
      throw error;
    });
  return icons;
}
