/**
 * The template's brand palette (`document.palette`): colours offered first by every colour field. It
 * is part of the template document, so it is saved, shared and undone like any other edit; the
 * renderer never draws it. See docs/editor.md.
 */
export const HEX = /^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/;

/** Colours `document.palette` holds at most (`MAX_PALETTE_COLORS` in the engine's schema.ts). */
export const MAX_PALETTE_COLORS = 32;

/**
 * Editors before the palette was part of the document kept it in this browser's localStorage, per
 * template id. Opening the template moves it into the document once (see `withLegacyPalette`).
 */
const LEGACY_PREFIX = "pictor.palette.";

/** The palette an earlier editor kept in this browser for the template, if any. */
export function legacyPalette(templateId: string): string[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(`${LEGACY_PREFIX}${templateId}`) ?? "[]") as unknown;
    return Array.isArray(parsed)
      ? parsed.filter((c): c is string => typeof c === "string" && HEX.test(c)).map((c) => c.toUpperCase())
      : [];
  } catch {
    return [];
  }
}

/** Drops the browser's copy once the document holds it. */
export function forgetLegacyPalette(templateId: string): void {
  try {
    localStorage.removeItem(`${LEGACY_PREFIX}${templateId}`);
  } catch {
    // Storage disabled: there was nothing to migrate either.
  }
}

/**
 * The document's palette followed by the legacy colours it lacks (compared without case), at most
 * MAX_PALETTE_COLORS; `null` when that adds nothing.
 */
export function withLegacyPalette(palette: readonly string[] | undefined, legacy: readonly string[]) {
  const have = new Set((palette ?? []).map((c) => c.toUpperCase()));
  const added = legacy.filter((c) => !have.has(c) && have.add(c));
  if (added.length === 0) return null;
  const merged = [...(palette ?? []), ...added].slice(0, MAX_PALETTE_COLORS);
  return merged.length === (palette ?? []).length ? null : merged;
}
