import { createHash } from "node:crypto";
import type { TemplateDocumentT } from "../document.ts";

/** An uploaded face as the render path needs it: the family the template names and where its bytes are. */
export interface AccountFontFace {
  assetId: string;
  family: string;
  blobKey: string;
}

type AnyLayer = { type: string; font?: { family: string }; layers?: AnyLayer[] };

/** Every font family the document's text layers name, in any frame or group. */
export function documentFamilies(document: TemplateDocumentT): Set<string> {
  const families = new Set<string>();
  const walk = (layers: readonly AnyLayer[]) => {
    for (const layer of layers) {
      if (layer.font) families.add(layer.font.family);
      if (layer.layers) walk(layer.layers);
    }
  };
  for (const frame of document.frames) walk(frame.layers as AnyLayer[]);
  return families;
}

/**
 * The engine-wide family name of an account's family. Two accounts may both upload "Brand Sans",
 * and one engine serves every account, so the name carries the account; it also carries the set of
 * faces, so a face uploaded later gets a fresh name (the engine caches family lookups).
 */
export function engineFamilyName(
  accountId: string,
  family: string,
  faces: readonly AccountFontFace[],
): string {
  const ids = faces
    .map((f) => f.assetId)
    .sort()
    .join(",");
  return `pictor:${accountId}:${family}:${createHash("sha256").update(ids).digest("hex").slice(0, 12)}`;
}

/** A copy of the document whose text layers name the engine-wide families instead of the account's. */
export function renameFamilies(
  document: TemplateDocumentT,
  names: ReadonlyMap<string, string>,
): TemplateDocumentT {
  if (names.size === 0) return document;
  const copy = structuredClone(document);
  const walk = (layers: AnyLayer[]) => {
    for (const layer of layers) {
      const renamed = layer.font ? names.get(layer.font.family) : undefined;
      if (layer.font && renamed) layer.font.family = renamed;
      if (layer.layers) walk(layer.layers);
    }
  };
  for (const frame of copy.frames) walk(frame.layers as AnyLayer[]);
  return copy;
}
