import { useState } from "react";

/**
 * The template's brand palette (`document.palette`): colours offered first by every colour field. It
 * is part of the template document, so it is saved, shared and undone like any other edit; the
 * renderer never draws it. See docs/editor.md.
 */
const HEX = /^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/;

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

/** Add and remove palette colours. */
export function PaletteEditor({
  palette,
  onChange,
}: {
  palette: readonly string[];
  onChange(next: string[]): void;
}) {
  const [draft, setDraft] = useState("#");
  const full = palette.length >= MAX_PALETTE_COLORS;
  const add = () => {
    const color = draft.toUpperCase();
    const known = palette.some((c) => c.toUpperCase() === color);
    if (HEX.test(color) && !known && !full) onChange([...palette, color]);
    setDraft("#");
  };
  return (
    <div className="field" data-testid="palette">
      <span>Brand palette</span>
      <div className="swatch-row">
        {palette.map((c) => (
          <button
            key={c}
            type="button"
            className="swatch brand"
            style={{ background: c }}
            aria-label={`Remove ${c} from the palette`}
            title={`${c} (click to remove)`}
            onClick={() => onChange(palette.filter((x) => x !== c))}
          />
        ))}
      </div>
      <div className="color-row">
        <input
          type="color"
          aria-label="Palette colour to add"
          value={HEX.test(draft) ? draft.slice(0, 7).toLowerCase() : "#000000"}
          onChange={(e) => setDraft(e.target.value.toUpperCase())}
        />
        <input
          className="mono"
          aria-label="Palette colour to add, hex"
          data-testid="palette-input"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => e.key === "Enter" && add()}
        />
        <button
          type="button"
          className="btn small"
          data-testid="palette-add"
          disabled={full}
          title={full ? `A palette holds at most ${MAX_PALETTE_COLORS} colours` : undefined}
          onClick={add}
        >
          Add
        </button>
      </div>
    </div>
  );
}
