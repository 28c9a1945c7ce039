import type { ValueFormatT } from "@pictor/engine";
import { stripUndefined } from "../model/doc-ops.ts";
import { CheckField, NumberField, SelectField, TextField } from "./fields.tsx";

const STYLES = ["decimal", "percent", "currency", "compact"] as const;
type NumberStyle = (typeof STYLES)[number];

/**
 * The numbers a progress label or a chart writes, through a format in a locale (the template's unless
 * given): style, currency, decimals, grouping, prefix and suffix. Off, the layer's own plain digits
 * (decimals, prefix, suffix) apply; the two are never set together.
 */
export function NumberFormatFields({
  value,
  onChange,
  testId,
  defaultStyle = "decimal",
}: {
  value: ValueFormatT | undefined;
  onChange(format: ValueFormatT | undefined): void;
  testId: string;
  /** The style the layer writes when the format names none (a progress percentage: percent). */
  defaultStyle?: NumberStyle;
}) {
  const format = value ?? {};
  const set = (patch: Partial<ValueFormatT>) => onChange(stripUndefined({ ...format, ...patch }));
  return (
    <>
      <CheckField
        label="Format in the template's locale"
        testId={`${testId}-on`}
        value={value !== undefined}
        onChange={(on) => onChange(on ? {} : undefined)}
      />
      {value !== undefined && (
        <div className="grid2">
          <NumberStyleFields format={format} set={set} testId={testId} defaultStyle={defaultStyle} />
          <TextField
            label="Locale (empty: the template's)"
            testId={`${testId}-locale`}
            value={format.locale ?? ""}
            onChange={(locale) =>
              (locale === "" || /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(locale)) &&
              set({ locale: locale || undefined })
            }
          />
          <TextField
            label="Before"
            value={format.prefix ?? ""}
            onChange={(p) => set({ prefix: p || undefined })}
          />
          <TextField
            label="After"
            value={format.suffix ?? ""}
            onChange={(s) => set({ suffix: s || undefined })}
          />
        </div>
      )}
    </>
  );
}

/**
 * The style of a formatted number (decimal, percent, currency with its code, compact), its decimals
 * and grouping: the part every number format in the editor shares. Test ids are `${testId}-style`,
 * `-currency`, `-decimals` and `-grouping`.
 */
export function NumberStyleFields({
  format,
  set,
  testId,
  defaultStyle = "decimal",
}: {
  format: ValueFormatT;
  set(patch: Partial<ValueFormatT>): void;
  testId: string;
  defaultStyle?: NumberStyle;
}) {
  return (
    <>
      <SelectField
        label="Style"
        testId={`${testId}-style`}
        value={format.style ?? defaultStyle}
        options={STYLES}
        onChange={(style) =>
          set({
            style: style === defaultStyle ? undefined : style,
            currency: style === "currency" ? (format.currency ?? "USD") : undefined,
          })
        }
      />
      {format.style === "currency" && (
        <TextField
          label="Currency (ISO 4217)"
          testId={`${testId}-currency`}
          value={format.currency ?? ""}
          onChange={(code) => /^[A-Z]{3}$/.test(code) && set({ currency: code })}
        />
      )}
      <NumberField
        label="Decimals"
        testId={`${testId}-decimals`}
        optional
        value={format.decimals}
        min={0}
        max={20}
        step={1}
        onChange={(decimals) => set({ decimals, max_decimals: undefined })}
      />
      <CheckField
        label="Group thousands"
        testId={`${testId}-grouping`}
        value={format.grouping !== false}
        onChange={(on) => set({ grouping: on ? undefined : false })}
      />
    </>
  );
}
