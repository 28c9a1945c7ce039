import { type ReactNode, useEffect, useState } from "react";
import { cssPaint, describePaint, type PaintValue } from "../model/paint-view.ts";
import { SwatchRow } from "./paint/palette.tsx";

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
  placeholder,
}: FieldProps<number | undefined> & {
  min?: number;
  max?: number;
  step?: number;
  optional?: boolean;
  /** Shown while the value is undefined ("Mixed" for layers that differ). */
  placeholder?: string;
}) {
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
        placeholder={placeholder ?? (optional ? "–" : undefined)}
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
  before,
}: FieldProps<string | null> & {
  nullable?: boolean;
  /** A control shown first in the row (the paint editor's kind select). */
  before?: ReactNode;
}) {
  const [draft, setDraft] = useState(value ?? "");
  useEffect(() => setDraft(value ?? ""), [value]);
  return (
    <div className="field compact">
      <span>{label}</span>
      <div className="color-row">
        {before}
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
          aria-label={`${label} (hex)`}
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
      <SwatchRow label={label} onPick={(color) => onChange(color)} />
    </div>
  );
}

/**
 * A paint property (document v2): a solid colour is edited as a colour; a gradient is shown as a
 * read-only swatch ("linear gradient, 3 stops") and left untouched.
 */
export function PaintField({
  label,
  value,
  onChange,
  testId,
  nullable,
}: Omit<FieldProps<PaintValue | null>, "onChange"> & {
  /** Only solid colours are edited here (null: none, when nullable). */
  onChange(value: string | null): void;
  nullable?: boolean;
}) {
  if (value === null || typeof value === "string")
    return <ColorField label={label} value={value} onChange={onChange} testId={testId} nullable={nullable} />;
  const text = describePaint(value);
  return (
    <div className="field compact">
      <span>{label}</span>
      <div
        className="color-row"
        data-testid={testId}
        data-paint={value.type}
        title={`${text} (read-only here)`}
      >
        <span className="paint-swatch" style={{ background: cssPaint(value) }} />
        <span className="muted small">{text}</span>
      </div>
    </div>
  );
}

/** A property the editor has no control for yet, shown as JSON. */
export function JsonView({ label, value, testId }: { label: string; value: unknown; testId?: string }) {
  return (
    <div className="field">
      <span>{label}</span>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long line scrolls sideways, and a scrolling region must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <pre className="json-view mono small" data-testid={testId} tabIndex={0}>
        {JSON.stringify(value, null, 2)}
      </pre>
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
