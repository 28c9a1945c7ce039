import { useCallback, useState } from "react";
import { parseRoute } from "../../app/route.ts";

/**
 * The template's brand palette: colours offered first by every colour field. Document v2 has no
 * field for editor-only data (the schema refuses unknown properties and the renderer has no use for
 * it), so the palette is kept per template id in this browser's localStorage; see docs/editor.md.
 */
const PREFIX = "pictor.palette.";
const HEX = /^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/;

function storageKey(): string | null {
  const route = parseRoute(location.hash);
  return route.name === "editor" ? `${PREFIX}${route.id}` : null;
}

function read(): string[] {
  const key = storageKey();
  if (!key) return [];
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? "[]") as unknown;
    return Array.isArray(parsed)
      ? parsed.filter((c): c is string => typeof c === "string" && HEX.test(c))
      : [];
  } catch {
    return [];
  }
}

export function usePalette(): [string[], (next: string[]) => void] {
  const [palette, setPalette] = useState(read);
  const save = useCallback((next: string[]) => {
    const key = storageKey();
    if (key) localStorage.setItem(key, JSON.stringify(next));
    setPalette(next);
  }, []);
  return [palette, save];
}

/** Add and remove palette colours. */
export function PaletteEditor({ palette, onChange }: { palette: string[]; onChange(next: string[]): void }) {
  const [draft, setDraft] = useState("#");
  const add = () => {
    const color = draft.toUpperCase();
    if (HEX.test(color) && !palette.includes(color)) onChange([...palette, color]);
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
        <button type="button" className="btn small" data-testid="palette-add" onClick={add}>
          Add
        </button>
      </div>
    </div>
  );
}
