import { useState } from "react";
import { HEX, MAX_PALETTE_COLORS } from "../../model/palette.ts";

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
