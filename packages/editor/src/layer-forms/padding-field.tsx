import type { PaddingT } from "@pictor/engine";
import { CheckField, NumberField } from "../controls/fields.tsx";

/** A container's padding: one number for every side, or four (top, right, bottom, left). */
export function PaddingField({
  value,
  testId,
  onChange,
}: {
  value: PaddingT | undefined;
  testId: string;
  onChange(padding: PaddingT | undefined): void;
}) {
  const perSide = Array.isArray(value);
  return (
    <>
      <CheckField
        label="Padding per side"
        testId={`${testId}-per-side`}
        value={perSide}
        onChange={(on) => {
          const p = typeof value === "number" ? value : (value?.[0] ?? 0);
          onChange(on ? [p, p, p, p] : p);
        }}
      />
      {perSide ? (
        <div className="grid2">
          {(["Top", "Right", "Bottom", "Left"] as const).map((label, i) => (
            <NumberField
              key={label}
              label={`Padding ${label.toLowerCase()}`}
              testId={`${testId}-${label.toLowerCase()}`}
              value={value[i] ?? 0}
              min={0}
              onChange={(v) => {
                const next: [number, number, number, number] = [...value];
                next[i] = v ?? 0;
                onChange(next);
              }}
            />
          ))}
        </div>
      ) : (
        <NumberField
          label="Padding"
          testId={testId}
          value={value ?? 0}
          min={0}
          onChange={(v) => onChange(v === undefined || v === 0 ? undefined : v)}
        />
      )}
    </>
  );
}
