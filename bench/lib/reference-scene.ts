import { readFile } from "node:fs/promises";
import type { TemplateDocumentT } from "@pictor/engine";

/** The scene every render benchmark draws (bench/reference-scene.json), so their figures compare. */
export async function readReferenceScene(): Promise<TemplateDocumentT> {
  return JSON.parse(
    await readFile(new URL("../reference-scene.json", import.meta.url), "utf8"),
  ) as TemplateDocumentT;
}
