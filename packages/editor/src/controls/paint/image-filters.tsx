import type { ImageLayerT, SlotT } from "../../engine/engine-types.ts";
import { BindSelect } from "../BindSelect.tsx";
import { CheckField, ColorField } from "../fields.tsx";

type Filters = NonNullable<ImageLayerT["filters"]>;
type Scalar = Exclude<keyof Filters, "duotone">;

/** The engine's image filters (render/image-filters.ts): range and the value that changes nothing. */
const SLIDERS: readonly { key: Scalar; label: string; max: number; none: number; step: number }[] = [
  { key: "brightness", label: "Brightness", max: 4, none: 1, step: 0.05 },
  { key: "contrast", label: "Contrast", max: 4, none: 1, step: 0.05 },
  { key: "saturation", label: "Saturation", max: 4, none: 1, step: 0.05 },
  { key: "grayscale", label: "Grayscale", max: 1, none: 0, step: 0.05 },
  { key: "sepia", label: "Sepia", max: 1, none: 0, step: 0.05 },
  { key: "blur", label: "Blur", max: 100, none: 0, step: 0.5 },
];

interface Props {
  value: Filters | undefined;
  slots: readonly SlotT[];
  bind: Record<string, string> | undefined;
  onChange(value: Filters | undefined, bind?: { bind: Record<string, string> | undefined }): void;
  onBind(bind: Record<string, string> | undefined): void;
}

/** Drops filters left at the value that changes nothing; undefined when none is left. */
function compact(filters: Filters): Filters | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(filters)) {
    const slider = SLIDERS.find((s) => s.key === key);
    if (v !== undefined && (!slider || v !== slider.none)) out[key] = v;
  }
  return Object.keys(out).length > 0 ? (out as Filters) : undefined;
}

/** Sliders (with their numbers) for each filter, and the duotone colours (bindable). */
export function ImageFilterFields({ value, slots, bind, onChange, onBind }: Props) {
  const filters = value ?? {};
  const duotone = filters.duotone;
  return (
    <fieldset className="filters" data-testid="image-filters">
      <legend>Filters</legend>
      {SLIDERS.map((s) => {
        const v = filters[s.key] ?? s.none;
        return (
          <label key={s.key} className="slider-field">
            <span>{s.label}</span>
            <input
              type="range"
              data-testid={`filter-${s.key}`}
              min={0}
              max={s.max}
              step={s.step}
              value={v}
              onChange={(e) => onChange(compact({ ...filters, [s.key]: Number(e.target.value) }))}
            />
            <output className="mono small">{v}</output>
          </label>
        );
      })}
      <CheckField
        label="Duotone"
        testId="filter-duotone"
        value={duotone !== undefined}
        onChange={(on) => {
          if (on) return onChange({ ...filters, duotone: { dark: "#1E1B4B", light: "#FDE68A" } });
          const { duotone: _gone, ...rest } = filters;
          const kept = Object.fromEntries(
            Object.entries(bind ?? {}).filter(([p]) => !p.startsWith("filters.duotone")),
          );
          onChange(compact(rest), { bind: Object.keys(kept).length > 0 ? kept : undefined });
        }}
      />
      {duotone && (
        <div className="grid2">
          {(["dark", "light"] as const).map((tone) => (
            <div key={tone}>
              <ColorField
                label={`Duotone ${tone}`}
                testId={`filter-duotone-${tone}`}
                value={duotone[tone]}
                onChange={(c) =>
                  c &&
                  /^#[0-9A-F]{6}$/.test(c) &&
                  onChange({ ...filters, duotone: { ...duotone, [tone]: c } })
                }
              />
              <BindSelect
                prop={`filters.duotone.${tone}`}
                type="color"
                slots={slots}
                bind={bind}
                onChange={onBind}
              />
            </div>
          ))}
        </div>
      )}
    </fieldset>
  );
}
