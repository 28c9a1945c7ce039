import type { FontT } from "@pictor/engine";
import { NumberField, SelectField } from "./fields.tsx";
import { FontPicker } from "./font-picker/FontPicker.tsx";
import { useFontFamilies } from "./font-picker/font-families.ts";

/**
 * The font of a layer's labels (progress and chart layers): family, weight and size, from the same
 * families as text layers (the shipped ones and the account's uploads).
 */
export function LabelFontFields({
  value,
  onChange,
  testId,
}: {
  value: FontT;
  onChange(font: FontT, key: string): void;
  testId: string;
}) {
  const { families, reload } = useFontFamilies();
  const family = families.find((f) => f.family === value.family);
  const weights = [...new Set((family?.faces ?? [{ weight: 400 }]).map((f) => String(f.weight)))];
  const weight = String(value.weight ?? 400);
  return (
    <>
      <FontPicker
        value={value.family}
        families={families.length ? families : [{ family: value.family, faces: [] }]}
        onChange={(name) => {
          const next = families.find((f) => f.family === name);
          const has = next?.faces.some((f) => String(f.weight) === weight);
          const first = next?.faces[0];
          onChange(
            has || !first ? { ...value, family: name } : { ...value, family: name, weight: first.weight },
            `${testId}-family`,
          );
        }}
        onUploaded={(uploaded) => {
          reload();
          onChange({ ...value, family: uploaded }, `${testId}-family`);
        }}
      />
      <div className="grid2">
        <SelectField
          label="Weight"
          testId={`${testId}-weight`}
          value={weight}
          options={weights.includes(weight) ? weights : [weight, ...weights]}
          onChange={(w) => onChange({ ...value, weight: Number(w) }, `${testId}-weight`)}
        />
        <NumberField
          label="Size"
          testId={`${testId}-size`}
          value={value.size}
          min={0.1}
          max={2000}
          onChange={(size) => size !== undefined && onChange({ ...value, size }, `${testId}-size`)}
        />
      </div>
    </>
  );
}
