import { api, storedKey } from "../api/client.ts";
import type { Engine, EngineModule, TemplateDocumentT } from "./engine-types.ts";
import { fetchFontBytes } from "./shipped-fonts.ts";

/** A face the account uploaded, as GET /v1/assets/fonts lists it. */
export interface AccountFont {
  id: string;
  asset_url: string;
  font: { family: string; weight: number; style: string };
}

/** How long a fetched list counts as current when a document names a family it does not have. */
const RELIST_AFTER_MS = 5_000;

/** The last list fetched, and for which signed-in key: another account (sign out, sign in) lists anew. */
let listing: { key: string | null; at: number; fonts: Promise<AccountFont[]> } | null = null;

/** The signed-in account's uploaded fonts, fetched once; `refresh` looks again (a fresh upload), at most every few seconds. */
export function accountFonts(options: { refresh?: boolean; force?: boolean } = {}): Promise<AccountFont[]> {
  const key = storedKey();
  const stale =
    listing !== null &&
    (options.force === true || (options.refresh === true && Date.now() - listing.at > RELIST_AFTER_MS));
  if (!listing || listing.key !== key || stale) {
    const fonts = api<{ data: AccountFont[] }>("/v1/assets/fonts").then((r) => r.data);
    const entry = { key, at: Date.now(), fonts };
    listing = entry;
    fonts.catch(() => {
      if (listing === entry) listing = null;
    });
  }
  return listing.fonts;
}

/**
 * The editor's side of custom fonts, as the render threads do it (server: adapters/queue/account-font-loader.ts):
 * families the document names that are not shipped are looked up among the account's uploads,
 * registered once under a name of their own (family + the faces' ids, so a face uploaded later gets
 * a fresh name), and the document is drawn with its text layers renamed to those names. Shipped
 * families win, as on the server. Returns the document to draw and, for warning messages, the
 * family each registered name stands for.
 */
export function createAccountFontLoader(module: EngineModule, engine: Engine, shipped: ReadonlySet<string>) {
  const registered = new Map<string, Promise<void>>();

  const register = (name: string, faces: AccountFont[]): Promise<void> => {
    let done = registered.get(name);
    if (!done) {
      done = Promise.all(faces.map((face) => fetchFontBytes(face.asset_url))).then((bytes) => {
        // Style and weight are read by CanvasKit from each face itself; these fields are informational.
        engine.registerFonts(bytes.map((b) => ({ family: name, weight: 400, style: "normal", bytes: b })));
      });
      registered.set(name, done);
      done.catch(() => registered.delete(name));
    }
    return done;
  };

  return async function withAccountFonts(
    document: TemplateDocumentT,
  ): Promise<{ document: TemplateDocumentT; familyOf: Map<string, string> }> {
    const familyOf = new Map<string, string>();
    const wanted = [...module.documentFontFamilies(document)].filter((f) => !shipped.has(f));
    if (wanted.length === 0) return { document, familyOf };
    let fonts = await accountFonts();
    if (wanted.some((family) => !fonts.some((f) => f.font.family === family))) {
      fonts = await accountFonts({ refresh: true });
    }
    const names = new Map<string, string>();
    for (const family of wanted) {
      const faces = fonts.filter((f) => f.font.family === family).sort((a, b) => (a.id < b.id ? -1 : 1));
      if (faces.length === 0) continue;
      const name = `account:${family}:${faces.map((f) => f.id).join(",")}`;
      await register(name, faces);
      names.set(family, name);
      familyOf.set(name, family);
    }
    return { document: module.renameFontFamilies(document, names), familyOf };
  };
}
