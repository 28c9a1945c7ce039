import { readFile } from "node:fs/promises";
import type { TemplateDocumentT } from "@pictor/engine";

const FILES = {
  reference: "../reference-scene.json",
  rich: "../reference-scene-rich.json",
  layout: "../reference-scene-layout.json",
} as const;

/**
 * The scene every render benchmark draws (bench/reference-scene.json), so their figures compare; or the
 * document v2 "rich" scene (bench/reference-scene-rich.json); or the document v3 "layout" scene
 * (bench/reference-scene-layout.json: a row of two stacks; on the left a headline that grows, an
 * optional subtitle and a wrapping row of 20 hugging chips; on the right a bar chart and a repeat of
 * 12 rows from the same list slot).
 */
export async function readReferenceScene(
  scene: keyof typeof FILES = "reference",
): Promise<TemplateDocumentT> {
  return JSON.parse(await readFile(new URL(FILES[scene], import.meta.url), "utf8")) as TemplateDocumentT;
}

/**
 * The reference scene's slots filled from its sample, the photo from `assetId` and the headline numbered
 * `i`, so each render of a benchmark is a distinct one.
 */
export function numberedModifications(document: TemplateDocumentT, assetId: string, i: number) {
  const sample = document.sample ?? {};
  return [
    { name: "headline", text: `${sample.headline ?? ""} #${i}` },
    { name: "body", text: sample.body ?? "" },
    { name: "photo", image_url: assetId },
    { name: "ink", color: sample.ink ?? "#FFFFFF" },
  ];
}
