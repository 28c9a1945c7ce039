import type { FamilyInfo } from "./font-families.ts";

/**
 * Browser FontFaces that preview each family in its own face in the font picker: the very files the
 * engine draws with (/editor/fonts/<file> for shipped families, the asset's file for uploads), loaded
 * once each, on first sight, under a name of their own so the page's fonts are never touched.
 */
const loaded = new Map<string, Promise<string | null>>();

/** The face shown for a family: regular upright if it has one, else its first. */
function previewFace(family: FamilyInfo) {
  return (
    family.faces.find((f) => f.weight === 400 && f.style === "normal") ??
    family.faces.find((f) => f.style === "normal") ??
    family.faces[0]
  );
}

/** The CSS family name that draws `family` in its own face once loaded (null: it failed). */
export function loadPreviewFace(family: FamilyInfo): Promise<string | null> {
  const face = previewFace(family);
  if (!face) return Promise.resolve(null);
  const key = `${family.family}\n${face.url}`;
  let done = loaded.get(key);
  if (!done) {
    const name = `pictor-preview-${loaded.size}`;
    done = fetch(face.url)
      .then((res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return res.arrayBuffer();
      })
      .then(async (bytes) => {
        const font = new FontFace(name, bytes, { weight: String(face.weight), style: face.style });
        document.fonts.add(await font.load());
        return name;
      })
      .catch(() => null);
    loaded.set(key, done);
  }
  return done;
}
