import type { Engine, EngineModule, FontFace, TemplateDocumentT } from "./engine-types.ts";

/** A face of the shipped set as /editor/fonts.json lists it. */
export interface ShippedFace {
  family: string;
  weight: number;
  style: "normal" | "italic";
  url: string;
  category?: string;
}

export interface FontManifest {
  faces: ShippedFace[];
  fallback: string[];
  companions?: Record<string, string>;
}

export async function fetchFontBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The faces of `families`, fetched (the browser caches the files a day). */
function fetchFaces(manifest: FontManifest, families: ReadonlySet<string>): Promise<FontFace[]> {
  return Promise.all(
    manifest.faces
      .filter((face) => families.has(face.family))
      .map(async (face) => ({
        family: face.family,
        weight: face.weight,
        style: face.style,
        bytes: await fetchFontBytes(face.url),
      })),
  );
}

/**
 * Families the engine needs before any document names them: the fallback list and the companions
 * of its script families, which any text may reach for a character its own family lacks.
 */
export function alwaysLoaded(manifest: FontManifest): Set<string> {
  return new Set([...manifest.fallback, ...Object.values(manifest.companions ?? {})]);
}

/** The faces the engine starts with: those of the families it always needs. */
export function initialFaces(manifest: FontManifest): Promise<FontFace[]> {
  return fetchFaces(manifest, alwaysLoaded(manifest));
}

/**
 * The editor's side of the catalogue, as the render threads load it (fonts' loadDeferredFontSet):
 * a shipped family's faces (all of them, so weight matching picks among the same faces as the API)
 * are fetched and registered the first time a document names the family, before it is drawn. The
 * catalogue is over 100 MB; a designer's page fetches the few families their templates use.
 */
export function createShippedFontLoader(module: EngineModule, engine: Engine, manifest: FontManifest) {
  const loaded = new Map<string, Promise<void>>();
  for (const family of alwaysLoaded(manifest)) loaded.set(family, Promise.resolve());
  const shipped = new Set(manifest.faces.map((face) => face.family));

  const load = (family: string): Promise<void> => {
    let done = loaded.get(family);
    if (!done) {
      done = fetchFaces(manifest, new Set([family])).then((faces) => engine.registerFonts(faces));
      loaded.set(family, done);
      done.catch(() => loaded.delete(family));
    }
    return done;
  };

  return {
    shipped: shipped as ReadonlySet<string>,
    /** Resolves once every shipped family `document` names is registered with the engine. */
    async ready(document: TemplateDocumentT): Promise<void> {
      const named = [...module.documentFontFamilies(document)].filter((family) => shipped.has(family));
      await Promise.all(named.map(load));
    },
  };
}
