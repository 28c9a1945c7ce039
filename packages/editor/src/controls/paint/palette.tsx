import { createContext, useContext } from "react";

/**
 * The swatches colour fields offer: the template's brand palette first, then the colours the
 * document already uses. Provided once by the properties panel; a field outside it shows none.
 */
export interface Swatches {
  palette: readonly string[];
  used: readonly string[];
}

export const SwatchesContext = createContext<Swatches>({ palette: [], used: [] });

export function useSwatches(): Swatches {
  return useContext(SwatchesContext);
}

const HEX = /#[0-9A-Fa-f]{6}(?:[0-9A-Fa-f]{2})?\b/g;

/** Distinct colours written anywhere in a value (a document), upper-cased, most used first. */
export function colorsUsedIn(value: unknown, limit = 8): string[] {
  const counts = new Map<string, number>();
  for (const match of JSON.stringify(value).matchAll(HEX)) {
    const color = match[0].toUpperCase();
    counts.set(color, (counts.get(color) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([color]) => color);
}

/** Small buttons applying one colour each (keyboard-operable, named by their colour). */
export function SwatchRow({ label, onPick }: { label: string; onPick(color: string): void }) {
  const { palette, used } = useSwatches();
  const colors = [...new Set([...palette, ...used])].slice(0, 12);
  if (colors.length === 0) return null;
  return (
    <div className="swatch-row">
      {colors.map((color) => (
        <button
          key={color}
          type="button"
          className={`swatch ${palette.includes(color) ? "brand" : ""}`}
          style={{ background: color }}
          aria-label={`${label}: use ${color}`}
          title={color}
          onClick={() => onPick(color)}
        />
      ))}
    </div>
  );
}
