import { readFile } from "node:fs/promises";
import type { TemplateDocumentT } from "@pictor/engine";

const FILES = { reference: "../reference-scene.json", rich: "../reference-scene-rich.json" } as const;

/**
 * The scene every render benchmark draws (bench/reference-scene.json), so their figures compare; or the
 * document v2 "rich" scene (bench/reference-scene-rich.json).
 */
export async function readReferenceScene(
  scene: keyof typeof FILES = "reference",
): Promise<TemplateDocumentT> {
  return JSON.parse(await readFile(new URL(FILES[scene], import.meta.url), "utf8")) as TemplateDocumentT;
}
