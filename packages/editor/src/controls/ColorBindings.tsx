import type { ColorBindingT } from "@pictor/engine";
import type { SlotT } from "../engine/engine-types.ts";
import { type AlphaChoice, alphaChoice, withAlphaChoice } from "../model/color-binding-alpha.ts";
import { NumberField, SelectField } from "./fields.tsx";

interface Props {
  bind: Readonly<Record<string, string>> | undefined;
  value: Readonly<Record<string, ColorBindingT>> | undefined;
  slots: readonly SlotT[];
  onChange(next: Record<string, ColorBindingT> | undefined): void;
  /** Where the section's fields' test ids start (several sections on one panel: one per inline style). */
  testIdPrefix?: string;
}

/**
 * For each property bound to a colour slot: how the slot's colour (#RRGGBB) is applied there, with the
 * design colour's opacity (the default), opaque, or an opacity set here; and a tint toward white (+)
 * or black (-).
 */
export function ColorBindingsFields({ bind, value, slots, onChange, testIdPrefix = "color-binding" }: Props) {
  const colorSlots = new Set(slots.filter((s) => s.type === "color").map((s) => s.name));
  const bound = Object.entries(bind ?? {}).filter(([, slot]) => colorSlots.has(slot));
  if (bound.length === 0) return null;
  const set = (property: string, options: ColorBindingT) => {
    const next: Record<string, ColorBindingT> = { ...value };
    if (options.alpha === undefined && options.tint === undefined) delete next[property];
    else next[property] = options;
    onChange(Object.keys(next).length > 0 ? next : undefined);
  };
  return (
    <section data-testid={`${testIdPrefix}s`}>
      <h3>Bound colours</h3>
      {bound.map(([property, slot]) => {
        const options = value?.[property] ?? {};
        const choice = alphaChoice(options);
        return (
          <div key={property} className="grid3">
            <SelectField<AlphaChoice>
              label={`${property} ← ${slot}: alpha`}
              testId={`${testIdPrefix}-${property}-alpha`}
              value={choice}
              options={[
                { value: "design", label: "design colour's (default)" },
                { value: "opaque", label: "opaque (slot's as given)" },
                { value: "set", label: "set" },
              ]}
              onChange={(next) => set(property, withAlphaChoice(options, next))}
            />
            {choice === "set" && typeof options.alpha === "number" && (
              <NumberField
                label="Alpha"
                testId={`${testIdPrefix}-${property}-alpha-value`}
                value={options.alpha}
                min={0}
                max={1}
                step={0.05}
                onChange={(alpha) => alpha !== undefined && set(property, { ...options, alpha })}
              />
            )}
            <NumberField
              label="Tint (+white, -black)"
              testId={`${testIdPrefix}-${property}-tint`}
              value={options.tint}
              optional
              min={-1}
              max={1}
              step={0.05}
              onChange={(tint) => {
                const { tint: _tint, ...rest } = options;
                set(property, tint === undefined || tint === 0 ? rest : { ...rest, tint });
              }}
            />
          </div>
        );
      })}
    </section>
  );
}
