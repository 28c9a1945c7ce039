import { DatabaseSync } from "node:sqlite";
import { documentFontFamilies, type FontFace, renameFontFamilies } from "@pictor/engine";
import { FONT_FAMILIES } from "@pictor/fonts";
import { type AccountFontFace, engineFamilyName } from "../../domain/assets/account-fonts.ts";
import type { TemplateDocumentT } from "../../domain/document.ts";
import type { BlobStore } from "../../ports/blob-store.ts";

const SHIPPED = new Set(FONT_FAMILIES.map((f) => f.family));

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
  /** The account's uploaded faces of one family, ordered by asset id (sqliteFontFaces, or PostgreSQL). */
  facesOf(accountId: string, family: string): Promise<AccountFontFace[]>;
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
      const faces = await deps.facesOf(accountId, family);
      if (faces.length === 0) continue;
      const name = engineFamilyName(accountId, family, faces);
      if (!registered.has(name)) {
        const loaded: FontFace[] = [];
        for (const face of faces) {
          const bytes = await deps.blobs.get(face.blobKey);
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

/** A render thread's asset lookups on the embedded default's SQLite file (its own read-only connection). */
export function sqliteAssetLookups(databaseFile: string) {
  const db = new DatabaseSync(databaseFile, { readOnly: true });
  db.exec("PRAGMA busy_timeout = 10000");
  // Scoped to the render's account: a template may name `asset://` ids, and only its own count.
  const blobKeyOf = db.prepare("SELECT blob_key FROM assets WHERE id = ? AND account_id = ?");
  // Prepared lazily: a data dir written before the asset library existed has no asset_files yet.
  let facesOf: ReturnType<DatabaseSync["prepare"]> | null = null;
  return {
    blobKeyOf: async (accountId: string, assetId: string): Promise<string | null> => {
      const row = blobKeyOf.get(assetId, accountId);
      return row ? String(row.blob_key) : null;
    },
    facesOf: async (accountId: string, family: string): Promise<AccountFontFace[]> => {
      facesOf ??= db.prepare(
        `SELECT f.asset_id, f.font_family, a.blob_key FROM asset_files f JOIN assets a ON a.id = f.asset_id
         WHERE f.account_id = ? AND f.font_family = ? ORDER BY f.asset_id`,
      );
      return facesOf.all(accountId, family).map((r) => ({
        assetId: String(r.asset_id),
        family: String(r.font_family),
        blobKey: String(r.blob_key),
      }));
    },
  };
}
