import { documentFontFamilies, type FontFace, renameFontFamilies } from "@pictor/engine";
import { SHIPPED_FAMILY_NAMES as SHIPPED } from "@pictor/fonts";
import { engineFamilyName } from "../../domain/assets/account-fonts.ts";
import type { TemplateDocumentT } from "../../domain/document.ts";
import type { BlobStore } from "../../ports/blob-store.ts";
import type { RenderLookups } from "../../ports/render-lookups.ts";
import { fromInputStore } from "./input-store-fault.ts";

export interface FontRegistry {
  registerFonts(faces: readonly FontFace[]): void;
}

/**
 * Render-worker side of custom fonts: finds the account's uploaded faces for the families a
 * document names (shipped families win: a template that says "Inter" gets the shipped Inter),
 * registers each set once per engine from the blob store, and returns the document with those
 * families renamed to their engine-wide names, plus the reverse map for warning messages.
 */
export function createAccountFontLoader(deps: {
  facesOf: RenderLookups["facesOf"];
  blobs: BlobStore;
  engine: FontRegistry;
}) {
  const registered = new Set<string>();

  return async function withAccountFonts(
    accountId: string,
    document: TemplateDocumentT,
  ): Promise<{ document: TemplateDocumentT; familyOf: Map<string, string> }> {
    const wanted = [...documentFontFamilies(document)].filter((f) => !SHIPPED.has(f));
    const familyOf = new Map<string, string>();
    if (wanted.length === 0) return { document, familyOf };
    const names = new Map<string, string>();
    for (const family of wanted) {
      const faces = await fromInputStore("looking up the account's fonts", () =>
        deps.facesOf(accountId, family),
      );
      if (faces.length === 0) continue;
      const name = engineFamilyName(accountId, family, faces);
      if (!registered.has(name)) {
        const loaded: FontFace[] = [];
        for (const face of faces) {
          const bytes = await fromInputStore("reading a font from the object store", () =>
            deps.blobs.get(face.blobKey),
          );
          // style/weight are read by CanvasKit from the face itself; these fields are informational.
          if (bytes) loaded.push({ family: name, weight: 400, style: "normal", bytes });
        }
        deps.engine.registerFonts(loaded);
        registered.add(name);
      }
      names.set(family, name);
      familyOf.set(name, family);
    }
    return { document: renameFontFamilies(document, names), familyOf };
  };
}
