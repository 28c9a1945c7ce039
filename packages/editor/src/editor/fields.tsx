import { useEffect, useState } from "react";

/** Small controlled inputs for the properties panel. Each commits a parsed value or nothing. */

interface FieldProps<T> {
  label: string;
  value: T;
  onChange(value: T): void;
  testId?: string;
}

export function NumberField({
  label,
  value,
  onChange,
  testId,
  min,
  max,
  step,
  optional,
}: FieldProps<number | undefined> & { min?: number; max?: number; step?: number; optional?: boolean }) {
  const [draft, setDraft] = useState(value === undefined ? "" : String(value));
  useEffect(() => setDraft(value === undefined ? "" : String(value)), [value]);
  return (
    <label className="field compact">
      <span>{label}</span>
      <input
        type="number"
        data-testid={testId}
        value={draft}
        min={min}
        max={max}
        step={step ?? "any"}
        placeholder={optional ? "–" : undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          if (e.target.value === "" && optional) return onChange(undefined);
          const n = Number(e.target.value);
          if (
            e.target.value !== "" &&
            Number.isFinite(n) &&
            (min === undefined || n >= min) &&
            (max === undefined || n <= max)
          )
            onChange(n);
        }}
      />
    </label>
  );
}

export function TextField({
  label,
  value,
  onChange,
  testId,
  multiline,
  placeholder,
}: FieldProps<string> & { multiline?: boolean; placeholder?: string }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is one of two elements below
    <label className="field">
      <span>{label}</span>
      {multiline ? (
        <textarea
          data-testid={testId}
          value={value}
          rows={3}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          data-testid={testId}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </label>
  );
}

const HEX = /^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/;

/** Colour with alpha: a swatch picker for RGB plus the hex text (#RRGGBB or #RRGGBBAA). */
export function ColorField({
  label,
  value,
  onChange,
  testId,
  nullable,
}: FieldProps<string | null> & { nullable?: boolean }) {
  const [draft, setDraft] = useState(value ?? "");
  useEffect(() => setDraft(value ?? ""), [value]);
  return (
    <div className="field compact">
      <span>{label}</span>
      <div className="color-row">
        <input
          type="color"
          aria-label={`${label} swatch`}
          value={value ? value.slice(0, 7).toLowerCase() : "#000000"}
          disabled={value === null}
          onChange={(e) =>
            onChange(`${e.target.value.toUpperCase()}${value && value.length === 9 ? value.slice(7) : ""}`)
          }
        />
        <input
          className="mono"
          data-testid={testId}
          value={draft}
          placeholder={nullable ? "none" : "#RRGGBB"}
          onChange={(e) => {
            setDraft(e.target.value);
            if (HEX.test(e.target.value)) onChange(e.target.value.toUpperCase());
            else if (nullable && e.target.value === "") onChange(null);
          }}
        />
      </div>
    </div>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: FieldProps<T> & { options: readonly (T | { value: T; label: string })[] }) {
  return (
    <label className="field compact">
      <span>{label}</span>
      <select data-testid={testId} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => {
          const v = typeof o === "string" ? o : o.value;
          return (
            <option key={v} value={v}>
              {typeof o === "string" ? o : o.label}
            </option>
          );
        })}
      </select>
    </label>
  );
}

export function CheckField({ label, value, onChange, testId }: FieldProps<boolean>) {
  return (
    <label className="check">
      <input
        type="checkbox"
        data-testid={testId}
        checked={value}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>{label}</span>
    </label>
  );
}
